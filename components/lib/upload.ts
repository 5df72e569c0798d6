"use client";

// Uploads with progress: XMLHttpRequest reports upload progress, fetch does not.
export type Uploaded = { url: string; name: string; size: number; mimeType: string };
export type UploadType = "boothLogo" | "boothBanner" | "boothDocument" | "product_image" | "logo" | "banner";

export function uploadFile(file: File, type: UploadType, onProgress: (percent: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append("type", type);
    form.append("file", file);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/upload");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as Uploaded);
      else
        reject(
          Object.assign(new Error((body as { detail?: string })?.detail ?? xhr.statusText), { status: xhr.status, code: (body as { code?: string })?.code }),
        );
    };
    xhr.onerror = () => reject(Object.assign(new Error("network error"), { status: 0 }));
    xhr.send(form);
  });
}
