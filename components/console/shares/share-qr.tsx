"use client";

import QRCode from "qrcode";
import { useEffect, useState } from "react";

/** The share URL as a QR code (PNG), with a download; regenerated when the slug rotates. */
export function ShareQr({ url, channel }: { url: string; channel: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toDataURL(url, { width: 240, margin: 1, errorCorrectionLevel: "M" }).then((data) => current && setImage(data));
    return () => {
      current = false;
    };
  }, [url]);
  if (!image) return <div className="h-40 w-40 animate-pulse rounded bg-slate-100" aria-hidden />;
  return (
    <figure className="space-y-2">
      {/* A data URL of our own: next/image adds nothing here. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={image} width={160} height={160} alt={`QR code of the ${channel} share link`} className="rounded ring-1 ring-slate-200" />
      <a href={image} download={`reelbind-${channel.toLowerCase()}-share-qr.png`} className="text-sm font-medium text-indigo-700 underline">
        Download QR code (PNG)
      </a>
    </figure>
  );
}
