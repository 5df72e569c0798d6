// The page cache keeps a page as the bytes between its nonces (lib/pages/page-cache.ts splitBytes):
// joined with any nonce they give back the page with that nonce, byte for byte, whatever the text.
import { describe, expect, it } from "vitest";
import { splitBytes } from "@/lib/pages/page-cache";

const NONCE = "q1w2e3r4t5y6u7i8o9p0AA==";

describe("splitBytes", () => {
  it("cuts at every nonce and keeps the bytes around them, multibyte text included", () => {
    const page = `<p>价格 ١٢٣ €</p><script nonce="${NONCE}">x</script><script nonce="${NONCE}"></script>ä`;
    const parts = splitBytes(Buffer.from(page, "utf8"), Buffer.from(NONCE, "latin1"));
    expect(parts.map((b) => b.toString("utf8"))).toEqual(page.split(NONCE));
    expect(Buffer.concat(parts.flatMap((b, i) => (i ? [Buffer.from("N"), b] : [b]))).toString("utf8")).toBe(page.split(NONCE).join("N"));
  });

  it("gives one part for a page without the nonce, and empty parts at its ends", () => {
    expect(splitBytes(Buffer.from("plain"), Buffer.from(NONCE)).map(String)).toEqual(["plain"]);
    expect(splitBytes(Buffer.from(`${NONCE}mid${NONCE}`), Buffer.from(NONCE)).map(String)).toEqual(["", "mid", ""]);
  });
});
