// Draws the extension's 128×128 marketplace icon (images/icon.png): a tiny timeline of coloured
// bars, written as a PNG with node:zlib so no image tool is needed. Run: node scripts/gen-icon.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';

const W = 128, H = 128;
const px = new Uint8Array(W * H * 4);
const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16), 255];

function rect(x0, y0, x1, y1, color, radius = 0) {
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      // Rounded corners: skip pixels outside the corner circles.
      const cx = x < x0 + radius ? x0 + radius : x >= x1 - radius ? x1 - radius - 1 : x;
      const cy = y < y0 + radius ? y0 + radius : y >= y1 - radius ? y1 - radius - 1 : y;
      if ((x - cx) ** 2 + (y - cy) ** 2 > radius ** 2) continue;
      px.set(color, (y * W + x) * 4);
    }
  }
}

rect(4, 4, 124, 124, hex('#1f6feb'), 20);
rect(16, 20, 112, 108, hex('#0d1117'), 8);
rect(24, 30, 70, 42, hex('#f7b32b'), 3); // DMA
rect(44, 48, 100, 60, hex('#45c4b0'), 3); // TE
rect(30, 66, 62, 78, hex('#e84855'), 3); // VE
rect(60, 84, 104, 96, hex('#f7b32b'), 3); // DMA
rect(22, 100, 106, 102, hex('#8b949e'));   // time axis

function crc32(buf) {
  let c, crc = 0xffffffff;
  for (let n = 0; n < buf.length; n++) {
    c = (crc ^ buf[n]) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(W, 0);
ihdr.writeUInt32BE(H, 4);
ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
const raw = Buffer.alloc((W * 4 + 1) * H);
for (let y = 0; y < H; y++) Buffer.from(px.buffer, y * W * 4, W * 4).copy(raw, y * (W * 4 + 1) + 1);
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
mkdirSync('images', { recursive: true });
writeFileSync('images/icon.png', png);
