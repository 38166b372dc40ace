#!/usr/bin/env python3
"""Writes the generated seeds of fuzz/corpus/<target>/: tiny PNGs of every colour type
and depth the reader decodes (and a few it declines), JPEG header segments, EXIF
payloads, masks, geometries and --from-file lists; with JPEG files as arguments, their
header segments up to the first scan too (photo_<name>, the compressed data left out).
Deterministic: run again, get the same files."""
import os
import random
import struct
import sys
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(target, name, data):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def png(width, height, depth, colour, rng, filters=(0, 1, 2, 3, 4), idat_parts=1, extra=(), interlace=0,
        level=6, palette=False):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    row_bytes = (width * channels * depth + 7) // 8
    raw = bytearray()
    for y in range(height):
        raw.append(filters[y % len(filters)])
        raw += bytes((x * 7 + y * 13 + rng.randrange(4)) & 0xFF for x in range(row_bytes))
    packed = zlib.compress(bytes(raw), level)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))
    for kind, payload in extra:
        out += chunk(kind, payload)
    if palette:
        out += chunk(b"PLTE", bytes(range(48)))
    step = max(1, (len(packed) + idat_parts - 1) // idat_parts)
    for i in range(0, len(packed), step):
        out += chunk(b"IDAT", packed[i:i + step])
    return out + chunk(b"IEND", b"")


def png_seeds():
    rng = random.Random(1)
    for colour in (0, 2, 4, 6):
        for depth in (8, 16):
            for size in ((1, 1), (3, 2), (17, 5)):
                put("png_decode", f"c{colour}_d{depth}_{size[0]}x{size[1]}.png", png(*size, depth, colour, rng))
    put("png_decode", "paeth_only.png", png(9, 9, 8, 6, rng, filters=(4,)))
    put("png_decode", "avg_up.png", png(8, 6, 8, 2, rng, filters=(3, 2)))
    put("png_decode", "three_idat.png", png(16, 8, 8, 2, rng, idat_parts=3))
    put("png_decode", "stored.png", png(6, 4, 16, 4, rng, level=0))
    put("png_decode", "ancillary.png", png(5, 5, 8, 0, rng, extra=((b"gAMA", b"\0\0\xb1\x8f"), (b"tEXt", b"a\0b"))))
    put("png_decode", "trns.png", png(4, 4, 8, 2, rng, extra=((b"tRNS", b"\0\1\0\2\0\3"),)))
    put("png_decode", "palette.png", png(4, 4, 8, 3, rng, palette=True))
    put("png_decode", "gray4.png", png(8, 3, 4, 0, rng))
    put("png_decode", "interlaced.png", png(4, 4, 8, 0, rng, interlace=1))


def segment(marker, payload):
    return bytes((0xFF, marker)) + struct.pack(">H", len(payload) + 2) + payload


def exif(order, orientation, entries_before=0):
    fmt = "<" if order == b"II" else ">"
    entries = [(0x010F + i, 2, 1, 0) for i in range(entries_before)] + [(0x0112, 3, 1, orientation << (16 if fmt == ">" else 0))]
    ifd = struct.pack(fmt + "H", len(entries)) + b"".join(struct.pack(fmt + "HHII", *e) for e in entries)
    return b"Exif\0\0" + order + struct.pack(fmt + "HI", 42, 8) + ifd + struct.pack(fmt + "I", 0)


def sof(marker, precision, width, height, components):
    payload = struct.pack(">BHHB", precision, height, width, len(components))
    payload += b"".join(bytes((cid, hv, 0)) for cid, hv in components)
    return segment(marker, payload)


def jpeg_seeds():
    ycc = ((1, 0x22), (2, 0x11), (3, 0x11))
    jfif = segment(0xE0, b"JFIF\0\1\1\0\0\1\0\1\0\0")
    sos = segment(0xDA, b"\3\1\0\2\x11\3\x11\0\x3f\0") + b"\x12\x34\xff\xd9"
    for order in (b"II", b"MM"):
        for orientation in (1, 6, 8):
            put("exif_orientation", f"{order.decode()}_{orientation}", exif(order, orientation, orientation % 3))
            put("jpeg_header", f"exif_{order.decode()}_{orientation}.jpg",
                b"\xff\xd8" + jfif + segment(0xE1, exif(order, orientation)) + sof(0xC0, 8, 33, 17, ycc) + sos)
    put("exif_orientation", "not_exif", b"XMP\0http://ns.adobe.com/")
    put("jpeg_header", "gray.jpg", b"\xff\xd8" + jfif + sof(0xC0, 8, 8, 8, ((1, 0x11),)) + sos)
    put("jpeg_header", "progressive.jpg", b"\xff\xd8" + sof(0xC2, 8, 640, 480, ycc) + sos)
    put("jpeg_header", "extended12.jpg", b"\xff\xd8" + sof(0xC1, 12, 7, 9, ycc) + sos)
    put("jpeg_header", "lossless.jpg", b"\xff\xd8" + sof(0xC3, 16, 7, 9, ((1, 0x11),)) + sos)
    put("jpeg_header", "rgb_ids.jpg", b"\xff\xd8" + sof(0xC0, 8, 5, 5, ((82, 0x11), (71, 0x11), (66, 0x11))) + sos)
    put("jpeg_header", "adobe_cmyk.jpg", b"\xff\xd8" + segment(0xEE, b"Adobe\0\x64\0\0\0\0\2") +
        sof(0xC0, 8, 4, 4, ((1, 0x11), (2, 0x11), (3, 0x11), (4, 0x11))) + sos)
    put("jpeg_header", "icc.jpg", b"\xff\xd8" + segment(0xE2, b"ICC_PROFILE\0\1\1" + bytes(40)) +
        b"\xff\xff" + sof(0xC0, 8, 2, 2, ycc) + segment(0xDB, bytes(65)) + b"\xff\xd0" + sos)
    put("jpeg_header", "dnl_height0.jpg", b"\xff\xd8" + sof(0xC0, 8, 16, 0, ycc) + sos)
    put("jpeg_header", "cut_after_frame.jpg", b"\xff\xd8" + sof(0xC0, 8, 16, 16, ycc) + b"\xff\xc4\x00")


def text_seeds():
    masks = ["0 -1 0; -1 5 -1; 0 -1 0", "1", "1,2,1\n2,4,2\n1,2,1\n", "# emboss\n-2 -1 0;-1 1 1;0 1 2 # end",
             "1e-3 2.5e+2 -0.5", "0x1p-3 nan inf", "1 2; 3", "1 2 3 4", ";;\n\r\n1\t\r\n", " ".join(["1"] * 31)]
    for i, text in enumerate(masks):
        put("mask_parse", f"mask{i}.txt", text)
    # First byte: even picks --geometry, odd a list such as --size.
    geometries = ["640x480+10+20", "7x5+3+2", "100X100", "10x10-5-5", "999999999x1+0+0", "1x1+999+999", "x1", "5x"]
    for i, text in enumerate(geometries):
        put("geometry_parse", f"geometry{i}", "g" + text)
    for i, text in enumerate(["800x600", "7x3", "0,0,0,255", "1e3x2.5", "-1x+2", "1,,2", "inf"]):
        put("geometry_parse", f"numbers{i}", "n" + text)
    lists = ["a.png\nb.jpg\n", "dir/x.png\r\ny.tif\r\n", "\n\nonly.png", "same.png\n./same.png\n",
             "sub/a.png\nother/a.png\n", "name with spaces.png\n-dash.png\n", "a\0b.png\n"]
    for i, text in enumerate(lists):
        put("batch_list", f"list{i}.txt", text)


def photo_headers(paths):
    for path in paths:
        data = open(path, "rb").read()
        at = 2
        while at + 4 <= len(data) and data[at] == 0xFF:
            marker, length = data[at + 1], struct.unpack(">H", data[at + 2:at + 4])[0]
            at += 2 + length
            if marker == 0xDA:
                break
        put("jpeg_header", "photo_" + os.path.splitext(os.path.basename(path))[0] + ".jpg", data[:at] + b"\xff\xd9")


def server_seeds():
    # The first byte: bit 0 picks the reply parser, bit 1 frames the rest as one payload,
    # bit 2 sends a descriptor along (fuzz/server_request.cpp).
    def text(t):
        return struct.pack("<I", len(t)) + t

    def texts(items):
        return struct.pack("<I", len(items)) + b"".join(text(t) for t in items)

    magic = struct.pack("<I", 0x47504653)
    for i, (kind, args, limits) in enumerate(((1, [b"gpufilter", b"blur", b"in.png", b"out.png"], [1 << 30, 1024]),
                                              (2, [b"gpufilter", b"server", b"status"], []),
                                              (3, [], [-1]))):
        payload = (magic + struct.pack("<I", kind) + text(b"0.2.0 /usr/bin/gpufilter 123 456") + texts(args) +
                   texts([b"GPUFILTER_THREADS=2"]) + struct.pack("<qI", 123456789, 0o22) +
                   struct.pack("<I", len(limits)) + b"".join(struct.pack("<q", v) for v in limits))
        put("server_request", f"request{i}", b"\x02" + payload)
        put("server_request", f"request{i}_fd", b"\x06" + payload)
        put("server_request", f"request{i}_stream", b"\x00" + struct.pack("<I", len(payload)) + payload)
    for i, (kind, code, message) in enumerate(((1, 0, b""), (2, 0, b"busy"), (3, 0, b"serving 2 GPUs"), (5, 0, b""))):
        put("server_request", f"reply{i}", b"\x03" + magic + struct.pack("<Ii", kind, code) + text(message))
    put("server_request", "huge_frame", b"\x00" + struct.pack("<I", 0xFFFFFFF0))


def main():
    photo_headers(sys.argv[1:])
    png_seeds()
    jpeg_seeds()
    text_seeds()
    server_seeds()
    return 0


if __name__ == "__main__":
    sys.exit(main())
