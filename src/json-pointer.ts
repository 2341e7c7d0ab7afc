/** A JSON pointer from a schema error ("/messages/0/content") as the field name users read ("messages[0].content"); "" for the root. */
export function pointerToField(pointer: string): string {
  return pointer
    .split("/")
    .filter(Boolean)
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");
}
