import { expect, test } from "bun:test";
import { bearerToken } from "../../../src/http/bearer-token";

const withAuthorization = (value: string | null) =>
  new Request("http://gw.test/api/v1/key?access_token=sk-from-query", value === null ? {} : { headers: { authorization: value } });

test("the key of a Bearer header, the scheme in any case, the key trimmed; nothing else is a bearer key", () => {
  const cases: Array<[string | null, string | undefined]> = [
    ["Bearer sk-1", "sk-1"],
    ["bearer sk-2", "sk-2"],
    ["BEARER sk-3", "sk-3"],
    ["Bearer   sk-4  ", "sk-4"],
    ["Bearer ", undefined],
    ["Bearer", undefined],
    ["Bearersk-5", undefined],
    ["Basic c2s6", undefined],
    ["sk-6", undefined],
    // the query string's access_token is never read
    [null, undefined],
  ];
  expect(cases.map(([header]) => bearerToken(withAuthorization(header)))).toEqual(cases.map(([, key]) => key));
});
