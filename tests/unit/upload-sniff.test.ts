import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { HEAD_BYTES, sniff, sniffOfficeZip } from "@/lib/services/uploads/sniff";
import { minimalPdf, tinyPng } from "../support/multipart";
import { officeFile, zip } from "../support/zip";

const head = (b: Buffer) => b.subarray(0, HEAD_BYTES);
const cfb = () => Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(4096)]);

describe("sniff", () => {
  it("knows images by their bytes, whatever the name says", async () => {
    expect(await sniff(tinyPng(), true, "photo.jpg")).toEqual({ kind: "image", mime: "image/png" });
    const jpeg = Buffer.concat([Buffer.from("ffd8ffe000104a46494600", "hex"), Buffer.alloc(64)]);
    expect(await sniff(jpeg, true, "x")).toMatchObject({ kind: "image", mime: "image/jpeg" });
    const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1");
    expect(await sniff(gif, true, "x")).toMatchObject({ kind: "image", mime: "image/gif" });
  });

  it("refuses SVG, HTML, text and executables", async () => {
    for (const [data, name] of [
      ['<svg xmlns="http://www.w3.org/2000/svg"/>', "a.svg"],
      ["<!doctype html><script>alert(1)</script>", "a.png"],
      ["hello", "a.txt"],
      ["MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff", "a.pdf"],
    ]) {
      expect(await sniff(Buffer.from(data!, "latin1"), true, name!), name).toBeNull();
    }
  });

  it("knows PDF and the OOXML formats, and checks a ZIP later when its head does not tell", async () => {
    expect(await sniff(minimalPdf(), true, "x")).toEqual({ kind: "document", mime: "application/pdf" });
    for (const kind of ["docx", "xlsx", "pptx"] as const) {
      expect((await sniff(officeFile(kind), true, "x"))?.mime).toMatch(/openxmlformats/);
    }
    const late = officeFile("xlsx", { typesLast: true, padding: 200_000 });
    expect(await sniff(head(late), false, "x.xlsx")).toEqual({ kind: "document", mime: "application/zip", needsZipCheck: true });
    expect(await sniffOfficeZip(Readable.from([late]))).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    // A plain ZIP is no Office document, whether seen whole or checked later.
    const plain = zip([["readme.txt", "hi"]]);
    expect(await sniff(plain, true, "x.docx")).toBeNull();
    expect(await sniffOfficeZip(Readable.from([plain]))).toBeNull();
  });

  it("takes DOC and XLS from the OLE2 signature plus the name, and nothing else in that container", async () => {
    expect(await sniff(cfb(), true, "old.doc")).toEqual({ kind: "document", mime: "application/msword" });
    expect(await sniff(cfb(), true, "old.XLS")).toEqual({ kind: "document", mime: "application/vnd.ms-excel" });
    expect(await sniff(cfb(), true, "old.ppt")).toBeNull();
    expect(await sniff(cfb(), true, "mail.msg")).toBeNull();
  });

  it("accepts CSV only as UTF-8 text without NULs under a .csv name", async () => {
    const csv = Buffer.from("name,price\nÄpfel,1.20\n", "utf8");
    expect(await sniff(csv, true, "prices.csv")).toEqual({ kind: "document", mime: "text/csv" });
    expect(await sniff(csv, true, "prices.txt")).toBeNull();
    expect(await sniff(Buffer.from([0x61, 0x2c, 0x00, 0x0a]), true, "x.csv")).toBeNull();
    expect(await sniff(Buffer.from([0x61, 0x2c, 0xc3, 0x28]), true, "x.csv")).toBeNull();
    // A character cut in half at the end of a partial head is not an encoding error.
    expect(await sniff(Buffer.from("a,Ä", "utf8").subarray(0, 3), false, "x.csv")).toMatchObject({ mime: "text/csv" });
    expect(await sniff(Buffer.alloc(0), true, "empty.csv")).toBeNull();
  });
});
