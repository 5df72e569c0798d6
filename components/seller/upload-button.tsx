"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { uploadFile, type Uploaded, type UploadType } from "@/components/lib/upload";

/** A file picker that uploads at once and shows a progress bar. */
export function UploadButton({
  type,
  accept,
  label,
  onUploaded,
  multiple,
}: {
  type: UploadType;
  accept: string;
  label: string;
  onUploaded: (u: Uploaded) => void;
  multiple?: boolean;
}) {
  const t = useTranslations("Upload");
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onFiles(files: FileList | null) {
    if (!files) return;
    setError(null);
    for (const file of Array.from(files)) {
      setProgress(0);
      try {
        onUploaded(await uploadFile(file, type, setProgress));
      } catch (err) {
        const e = err as { status?: number; message: string };
        setError(e.status === 413 ? t("tooLarge") : e.status === 415 ? t("wrongType") : t("failed", { reason: e.message }));
      }
    }
    setProgress(null);
  }

  return (
    <div>
      <label
        htmlFor={id}
        className="inline-flex cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-50"
      >
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        multiple={multiple}
        className="sr-only"
        onChange={(e) => void onFiles(e.target.files).then(() => (e.target.value = ""))}
      />
      {progress !== null && (
        <div
          className="mt-2"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          aria-label={t("uploading", { percent: progress })}
          data-testid="upload-progress"
        >
          <div className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
            <div className="h-full bg-brand-600 transition-all" style={{ width: `${progress}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600">{t("uploading", { percent: progress })}</p>
        </div>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
