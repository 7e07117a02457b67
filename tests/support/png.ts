// A real PNG for logo uploads: the documents draw it, so it must decode (a signature followed
// by junk passes the upload's type check but is no image).

import { crc32, deflateSync } from 'node:zlib';

/** A real RGBA PNG (a blue bar fading in), so the PDF has an image with a soft mask to draw. */
export function pngLogo(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA
  const rows = Array.from({ length: height }, () => {
    const row = Buffer.alloc(1 + width * 4);
    for (let x = 0; x < width; x++) row.set([11, 87, 208, Math.round((255 * x) / width)], 1 + x * 4);
    return row;
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
