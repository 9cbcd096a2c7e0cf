/** What a file is by its first bytes (magic numbers), never by its name or the client's Content-Type. */
export type DetectedType = {
  contentType: string;
  category: "video" | "image" | "font";
};

const startsWith = (head: Buffer, bytes: number[] | string, offset = 0) => {
  const expected = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Buffer.from(bytes);
  return head.length >= offset + expected.length && head.subarray(offset, offset + expected.length).equals(expected);
};

export function detectFileType(head: Buffer): DetectedType | null {
  if (startsWith(head, "ftyp", 4)) return { contentType: "video/mp4", category: "video" };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contentType: "image/png", category: "image" };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { contentType: "image/jpeg", category: "image" };
  if (startsWith(head, "GIF87a") || startsWith(head, "GIF89a")) return { contentType: "image/gif", category: "image" };
  if (startsWith(head, "RIFF") && startsWith(head, "WEBP", 8)) return { contentType: "image/webp", category: "image" };
  if (startsWith(head, [0x00, 0x01, 0x00, 0x00])) return { contentType: "font/ttf", category: "font" };
  if (startsWith(head, "OTTO")) return { contentType: "font/otf", category: "font" };
  if (startsWith(head, "wOFF")) return { contentType: "font/woff", category: "font" };
  if (startsWith(head, "wOF2")) return { contentType: "font/woff2", category: "font" };
  return null;
}
