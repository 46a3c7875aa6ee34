#!/usr/bin/env node
// Draws the app icon (an original design: a key whose teeth are level-meter bars, on a rounded
// square) and writes resources/icon.png (1024 px: electron-builder derives the macOS .icns and the
// Windows .ico from it) and resources/icons/<n>x<n>.png (the Linux sizes). No image library or
// ImageMagick: shapes are signed-distance functions, supersampled, encoded as PNG with zlib.
// Run `node resources/make-icon.mjs` after changing the drawing; the PNGs are committed.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'

const here = import.meta.dirname
const SAMPLES = 4 // per axis: 16 samples a pixel

// ---- the drawing, in a 0..1 square ----------------------------------------------------------------

const roundedSquare = (x, y) => sdRoundRect(x - 0.5, y - 0.5, 0.42, 0.42, 0.2)
const bowOuter = (x, y) => Math.hypot(x - 0.3, y - 0.5) - 0.14
const bowInner = (x, y) => Math.hypot(x - 0.3, y - 0.5) - 0.07
const shaft = (x, y) => sdRoundRect(x - 0.58, y - 0.5, 0.2, 0.04, 0.02)

/** The teeth hang from the blade at three heights, like the bars of a level meter. */
function teeth(x, y) {
  const t1 = sdRoundRect(x - 0.62, y - 0.58, 0.024, 0.06, 0.012)
  const t2 = sdRoundRect(x - 0.69, y - 0.56, 0.024, 0.04, 0.012)
  const t3 = sdRoundRect(x - 0.76, y - 0.595, 0.024, 0.075, 0.012)
  return Math.min(t1, t2, t3)
}

const key = (x, y) => Math.min(Math.max(bowOuter(x, y), -bowInner(x, y)), shaft(x, y), teeth(x, y))

/** Colour of one sample: transparent outside, a diagonal indigo-to-teal gradient, a white key. */
function sample(x, y) {
  if (roundedSquare(x, y) > 0) return [0, 0, 0, 0]
  const t = Math.min(1, Math.max(0, (x + y) / 2))
  const background = mix([49, 46, 129], [13, 148, 136], t)
  if (key(x, y) <= 0) return [248, 250, 252, 255]
  // A soft shadow under the key, for depth at large sizes.
  const shadow = key(x - 0.01, y - 0.015) <= 0 ? 0.25 : 0
  return [...mix(background, [0, 0, 0], shadow), 255]
}

// ---- rendering and PNG ---------------------------------------------------------------------------

function render(size) {
  const pixels = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const [cr, cg, cb, ca] = sample((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)
          // Premultiplied, so transparent samples do not darken the edge.
          r += cr * ca
          g += cg * ca
          b += cb * ca
          a += ca
        }
      }
      const offset = (py * size + px) * 4
      pixels[offset] = a ? Math.round(r / a) : 0
      pixels[offset + 1] = a ? Math.round(g / a) : 0
      pixels[offset + 2] = a ? Math.round(b / a) : 0
      pixels[offset + 3] = Math.round(a / (SAMPLES * SAMPLES))
    }
  }
  return encodePng(size, size, pixels)
}

function encodePng(width, height, rgba) {
  const raw = Buffer.alloc((width * 4 + 1) * height)
  for (let y = 0; y < height; y += 1) {
    raw[y * (width * 4 + 1)] = 0 // filter: none
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0))
  ])
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buffer) {
  let c = 0xffffffff
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function sdRoundRect(x, y, halfWidth, halfHeight, radius) {
  const qx = Math.abs(x) - halfWidth + radius
  const qy = Math.abs(y) - halfHeight + radius
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius
}

function mix(a, b, t) {
  return a.map((value, i) => Math.round(value + (b[i] - value) * t))
}

writeFileSync(join(here, 'icon.png'), render(1024))
mkdirSync(join(here, 'icons'), { recursive: true })
for (const size of [16, 32, 48, 64, 128, 256, 512])
  writeFileSync(join(here, 'icons', `${size}x${size}.png`), render(size))
process.stdout.write('wrote resources/icon.png and resources/icons/*.png\n')
