import { expect, test } from "bun:test";
import fc from "fast-check";
import { html } from "../../../src/auth-web/html";

test("inserted values are escaped; Html and arrays of it are not; null, undefined and false insert nothing", () => {
  const inner = html`<b>${"<i>"}</b>`;
  expect(html`<p title="${'"x"'}">${"a & b"}${inner}${[html`<br>`, "<"]}${null}${undefined}${false}</p>`.text).toBe(
    '<p title="&quot;x&quot;">a &amp; b<b>&lt;i&gt;</b><br>&lt;</p>',
  );
});

test("property: no inserted string can open a tag or leave an attribute", () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      const out = html`<input value="${s}">`.text;
      const inner = out.slice('<input value="'.length, -'">'.length);
      return !/[<>"']/.test(inner);
    }),
    { seed: 2, numRuns: 2000 },
  );
});
