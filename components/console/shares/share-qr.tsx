"use client";

import QRCode from "qrcode";
import { useEffect, useState } from "react";

/** ISO/IEC 18004 asks for four modules of light margin around the symbol; scanners miss codes with less. */
const quietZoneModules = 4;
/** Drawn at twice the shown size, so it stays sharp on dense screens and in the downloaded file. */
const imagePixels = 640;

/**
 * The share URL as a QR code (PNG), with a download; regenerated when the slug rotates. Shown 320
 * px wide, shrinking with a narrow screen: the quiet zone is part of the image, so it scales with it.
 */
export function ShareQr({ url, channel }: { url: string; channel: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void QRCode.toDataURL(url, { width: imagePixels, margin: quietZoneModules, errorCorrectionLevel: "M" }).then((data) => current && setImage(data));
    return () => {
      current = false;
    };
  }, [url]);
  if (!image) return <div className="aspect-square w-full max-w-80 shrink-0 animate-pulse rounded bg-slate-100 sm:w-80" aria-hidden />;
  return (
    <figure className="w-full shrink-0 space-y-2 sm:w-80">
      {/* A data URL of our own: next/image adds nothing here. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={image} width={320} height={320} alt={`QR code of the ${channel} share link`} className="block h-auto w-full max-w-80 rounded ring-1 ring-slate-200" data-testid="share-qr" />
      <a href={image} download={`reelbind-${channel.toLowerCase()}-share-qr.png`} className="text-sm font-medium text-indigo-700 underline">
        Download QR code (PNG)
      </a>
    </figure>
  );
}
