import { describe, expect, it } from "vitest";
import { canonicalRequest, canonicalUri, EMPTY_SHA256, sha256Hex, signRequest } from "@/lib/storage/sigv4";

// The examples of AWS's "Signature Calculations for the Authorization Header: Transferring
// Payload in a Single Chunk" (Amazon S3 API reference), with its example credentials and date.
const credentials = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };
const date = new Date(Date.UTC(2013, 4, 24, 0, 0, 0));
const base = "https://examplebucket.s3.amazonaws.com";
const signature = (h: Record<string, string>) => /Signature=([0-9a-f]{64})$/.exec(h.authorization!)?.[1];

describe("SigV4 signer (AWS S3 documentation examples)", () => {
  it("GET Object with a Range header", () => {
    const url = new URL(`${base}/test.txt`);
    const headers = signRequest({ method: "GET", url, headers: { Range: "bytes=0-9" }, payloadHash: EMPTY_SHA256, region: "us-east-1", credentials, date });
    // The canonical request's hash, as printed in the example's StringToSign.
    const { text } = canonicalRequest(
      "GET",
      url,
      { host: url.host, range: "bytes=0-9", "x-amz-content-sha256": EMPTY_SHA256, "x-amz-date": "20130524T000000Z" },
      EMPTY_SHA256,
    );
    expect(sha256Hex(text)).toBe("7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    expect(headers["x-amz-date"]).toBe("20130524T000000Z");
    expect(headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request," +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date," +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  it("PUT Object with a payload, a Date header and a $ in the key", () => {
    const payload = "Welcome to Amazon S3.";
    const payloadHash = sha256Hex(payload);
    expect(payloadHash).toBe("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    const headers = signRequest({
      method: "PUT",
      url: new URL(`${base}/test$file.text`),
      headers: { Date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY" },
      payloadHash,
      region: "us-east-1",
      credentials,
      date,
    });
    expect(headers.authorization).toContain("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,");
    expect(signature(headers)).toBe("98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  });

  it("GET Bucket lifecycle (a query parameter without a value)", () => {
    const headers = signRequest({ method: "GET", url: new URL(`${base}/?lifecycle`), payloadHash: EMPTY_SHA256, region: "us-east-1", credentials, date });
    expect(signature(headers)).toBe("fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  });

  it("GET Bucket (list objects), query parameters given out of order", () => {
    const headers = signRequest({
      method: "GET",
      url: new URL(`${base}/?prefix=J&max-keys=2`),
      payloadHash: EMPTY_SHA256,
      region: "us-east-1",
      credentials,
      date,
    });
    expect(signature(headers)).toBe("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  });

  it("encodes each key segment once and keeps a non-default port in the host", () => {
    expect(canonicalUri("/bucket/a b/é(1)*.jpg")).toBe("/bucket/a%20b/%C3%A9%281%29%2A.jpg");
    expect(canonicalUri("/bucket/a%20b")).toBe("/bucket/a%20b");
    const headers = signRequest({
      method: "GET",
      url: new URL("http://minio:9000/bucket/k"),
      payloadHash: EMPTY_SHA256,
      region: "us-east-1",
      credentials,
      date,
    });
    expect(headers.host).toBe("minio:9000");
  });
});
