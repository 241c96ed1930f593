#!/usr/bin/env python3
"""Regenerates the recorded runs in this folder (python3 gen.py).

No GPU was available when these were made, so the "honest" runs are derived,
not measured:
  * the device files carry the memory clock and bus width each board reports
    (datasheet data rate / 2, datasheet bus width); devquery's peak follows;
  * stride 1 is the datasheet bandwidth times a typical achieved fraction for
    a large coalesced device-to-device copy (HBM ~0.87-0.90, GDDR ~0.77-0.91);
  * the strided rows follow the 32-byte-sector model: stride s fetches
    min(s, 8) times the sectors of stride 1, so bandwidth halves per doubling
    up to stride 8 and then stays on the 1/8 plateau (a little above it on
    boards with a large L2); strides 2 to 8 never exceed 1/s of the
    theoretical peak (the RTX 4090 figures were lowered to respect that
    when the 'sector peak' check came); the chunked copy sits near 40% of
    stride 1;
  * ms is what coalescing.cu would time, gbps = bytes / ms / 1e6 exactly as
    the program computes it.
The broken runs take an honest run and inject one defect each.
"""
import json, os

BYTES = 2 * 64 * 1024 * 1024 * 4
HERE = os.path.dirname(os.path.abspath(__file__))

# name, cc, sms, mem clock kHz, bus bits, stride-1 fraction of the datasheet
# figure, datasheet GB/s, strided fractions of stride 1 (2, 4, 8, 16, 32),
# chunked fraction.
GPUS = {
    "t4": ("Tesla T4", "7.5", 40, 5001000, 256, 0.77, 320,
           (0.52, 0.27, 0.135, 0.131, 0.128), 0.38),
    "l4": ("NVIDIA L4", "8.9", 58, 6251000, 192, 0.80, 300,
           (0.53, 0.28, 0.142, 0.150, 0.162), 0.42),
    "a100-sxm4-80gb": ("NVIDIA A100-SXM4-80GB", "8.0", 108, 1593000, 5120,
                       0.87, 2039, (0.51, 0.26, 0.131, 0.134, 0.139), 0.36),
    "h100-sxm": ("NVIDIA H100 80GB HBM3", "9.0", 132, 2619000, 5120, 0.90,
                 3350, (0.51, 0.26, 0.133, 0.137, 0.145), 0.41),
    "h200": ("NVIDIA H200", "9.0", 132, 3201000, 6144, 0.88, 4800,
             (0.51, 0.26, 0.132, 0.138, 0.147), 0.40),
    "rtx-4090": ("NVIDIA GeForce RTX 4090", "8.9", 128, 10501000, 384, 0.91,
                 1008, (0.52, 0.265, 0.132, 0.150, 0.180), 0.47),
}


def device(g):
    name, cc, sms, khz, bus = g[:5]
    peak = 2.0 * khz * 1e3 * (bus / 8) / 1e9
    return {"name": name, "cc": cc, "sm_count": sms, "mem_clock_khz": khz,
            "bus_width_bits": bus, "peak_gbps": round(peak, 3)}


def row(pattern, key, param, gbps, nbytes=BYTES):
    ms = round(nbytes / (gbps * 1e6), 6)
    return {"pattern": pattern, key: param, "ms": ms,
            "gbps": round(nbytes / ms / 1e6, 3), "bytes": nbytes}


def rows_for(g):
    s1 = g[5] * g[6]
    out = [row("stride", "stride", 1, s1)]
    for s, f in zip((2, 4, 8, 16, 32), g[7]):
        out.append(row("stride", "stride", s, s1 * f))
    out.append(row("chunked", "chunk", 32, s1 * g[8]))
    return out


def line(r):
    # The program's own key order and spacing.
    k = "stride" if r["pattern"] == "stride" else "chunk"
    return ('{"pattern":"%s","%s":%d,"ms":%.6f,"gbps":%.3f,"bytes":%d}'
            % (r["pattern"], k, r[k], r["ms"], r["gbps"], r["bytes"]))


def write(path, lines, tail="\n"):
    # tail="" leaves the last line unterminated, as a killed program does.
    text = "\n".join(lines) + (tail if lines else "")
    with open(os.path.join(HERE, path), "w") as f:
        f.write(text)


def main():
    os.makedirs(os.path.join(HERE, "honest"), exist_ok=True)
    os.makedirs(os.path.join(HERE, "broken"), exist_ok=True)
    runs = {}
    for key, g in GPUS.items():
        with open(os.path.join(HERE, "honest", key + ".device.json"), "w") as f:
            json.dump(device(g), f)
            f.write("\n")
        runs[key] = rows_for(g)
        write("honest/%s.rows.jsonl" % key, [line(r) for r in runs[key]])

    h = runs["h100-sxm"]
    s1 = h[0]["gbps"]
    by = lambda rs: [line(r) for r in rs]
    broken = {}
    # The lesson's first version: (i * stride) % n touches half the sectors
    # at stride 16 and a quarter at stride 32, so it reports 2x and 4x.
    broken["modulo-bug"] = h[:4] + [
        row("stride", "stride", 16, h[4]["gbps"] * 2),
        row("stride", "stride", 32, h[5]["gbps"] * 4), h[6]]
    # Counting one buffer instead of read + write.
    half = BYTES // 2
    broken["wrong-bytes"] = h[:3] + [
        row("stride", "stride", 8, h[3]["gbps"], nbytes=half)] + h[4:]
    broken["missing-row"] = h[:2] + h[3:]
    broken["duplicate-row"] = h[:2] + [h[1]] + h[2:]
    mismatch = dict(h[2])
    mismatch["gbps"] = round(mismatch["gbps"] * 1.6, 3)
    broken["gbps-mismatch"] = h[:2] + [mismatch] + h[3:]
    dev = device(GPUS["h100-sxm"])
    broken["above-peak"] = [row("stride", "stride", 1,
                                dev["peak_gbps"] * 1.08)] + h[1:]
    broken["strided-faster"] = [h[0], row("stride", "stride", 2, s1 * 1.08)] \
        + h[2:]
    broken["chunked-faster"] = h[:6] + [row("chunked", "chunk", 32, s1 * 1.02)]
    # Stride 2 nearly as fast as stride 1: within the old 1.05 x stride 1,
    # but it moves twice the sectors, so the sector model rejects it (the
    # grid's y rows never share a sector through L2; see README.md).
    broken["stride2-near-stride1"] = [h[0], row("stride", "stride", 2,
                                                s1 * 0.97)] + h[2:]
    for name, rs in broken.items():
        write("broken/%s.rows.jsonl" % name, by(rs))
    # Malformed input: the checker must say where, not grade it.
    full = by(h)
    write("broken/truncated.rows.jsonl", full[:4] + [full[4][:37]], tail="")
    write("broken/cuda-error.rows.jsonl", [
        "CUDA error coalescing.cu:137: cudaMalloc(&d_in, bytes): "
        "out of memory"])
    write("broken/empty.rows.jsonl", [])


if __name__ == "__main__":
    main()
