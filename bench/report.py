#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench/report.py WORKDIR RESULTSDIR DATE - the benchmark's report

Reads the "RUN key=value ..." lines bench.sh collected in WORKDIR/*.runs
and writes RESULTSDIR/DATE.md (tables of medians and spreads, ratios
against the peer, the targets and whether they are met) and
RESULTSDIR/DATE-*.png (gnuplot).  Every figure is a median over the
repetitions; the spread is min..max.
"""

import glob
import os
import statistics
import subprocess
import sys

PEER = "zswap-lz4"
# Debian's cloud kernels are built without zswap: zram is their peer.
CLOUD_PEER = "zram"
WORKLOAD_TEXT = {
    "mixed": "mixed: sequential fill and two read-backs, real text/binaries, 10% zero",
    "zero": "zero-heavy: the same with 60% zero pages",
    "random": "incompressible: random pages",
    "threads": "2-thread random read-verify-write (ops/s)",
    "build": "build-like: 6 jobs, 2 at a time, in a memcg of half the RAM",
}
WORKLOADS = ["mixed", "zero", "random", "threads", "build"]
# the workloads' names in the targets' table
TITLES_SHORT = {"mixed": "mixed", "zero": "zero-heavy", "random": "incompressible",
                "threads": "2-thread random", "build": "build-like"}
# one colour per backend, the same in every plot
COLOURS = {
    "disk": "#555555", "zswap-default": "#8fbc8f", "zswap-lz4": "#2e8b57",
    "zswap-zstd": "#006400", "zram": "#daa520", "zcache-lz4": "#1f77b4",
    "zcache-zstd": "#d62728", "zcache-lzo": "#9467bd", "zcache-lz4hc": "#17becf",
    "zcache-deflate": "#e377c2", "zcache-lz4-p50": "#ff7f0e",
    "zcache-lz4-nowb": "#aec7e8", "zswap-lz4-shrink": "#98df8a",
}
WRITEBACK_WORKLOADS = ["mixed", "threads", "build"]


def is_cloud(kernel):
    """6.1.0-57-cloud-amd64, 6.12.118+deb12-cloud-amd64: built without zswap."""
    return "cloud" in kernel


def peer_of(kernel):
    return CLOUD_PEER if is_cloud(kernel) else PEER


def writeback_backends(kernel):
    """What writeback buys: zcache with it (its default) and without, next to
    the peer (and 6.12's zswap with its shrinker), on the workloads whose
    pool fills."""
    return ["zcache-lz4", "zcache-lz4-nowb", peer_of(kernel), "zswap-lz4-shrink"]


def records(workdir, suffix, tag):
    """The key=value fields of every line starting with TAG in WORKDIR/*.SUFFIX."""
    for path in sorted(glob.glob(os.path.join(workdir, "*." + suffix))):
        with open(path) as f:
            for line in f:
                fields = line.split()
                if fields and fields[0] == tag:
                    yield dict(kv.split("=", 1) for kv in fields[1:] if "=" in kv)


def parse(workdir):
    return list(records(workdir, "runs", "RUN"))


def parse_models(workdir):
    """The latency-modelled disks of each boot: {(kernel, disk): MODEL fields}."""
    return {(m["kernel"], m["disk"]): m for m in records(workdir, "model", "MODEL")}


# Disk models, the latency-modelled first (the README leads with them).
DISK_ORDER = ["nvme", "cloud", "throttled", "raw"]
DISK_TEXT = {
    "nvme": "a local NVMe SSD: at least 85 us a read, 20 us a write (Intel P4500, random 4 KiB), "
            "times the guest's slowdown",
    "cloud": "a cloud network volume: at least 1000 us a request (the low end of AWS gp3's "
             "\"single-digit millisecond\"), times the guest's slowdown",
    "throttled": "O_DIRECT limited to 2500 IOPS and 125 MiB/s (no latency per request)",
    "raw": "O_DIRECT unthrottled: the host's disk, fast next to TCG's CPU",
}


def kernel_key(kernel):
    """6.1.0-57-amd64, 6.12.117+deb12-amd64: sorts by major.minor, the cloud
    kernels after the others."""
    return [int(is_cloud(kernel))] + \
        [int(x) for x in kernel.split("-")[0].replace("+deb12", "").split(".")[:2]]


def parse_profiles(workdir):
    """The PROF lines of the profile boots: {kernel: {backend: {func: (calls, mean_us)}}}."""
    prof = {}
    for p in records(workdir, "prof", "PROF"):
        prof.setdefault(p["kernel"], {}).setdefault(p["backend"], {})[p["func"]] = \
            (int(p["calls"]), float(p["mean_us"]))
    return prof


# The profile's functions in call order: entry points, each cache's own
# steps, then what both call.
PROFILE_ORDER = ["zswap_frontswap_store", "zswap_store", "zcache_store",
                 "zcomp_looks_incompressible", "zswap_compress", "zcomp_compress",
                 "lz4_scompress", "lz4_compress_crypto", "zs_malloc", "xa_ext_replace", "xa_store",
                 "zswap_frontswap_load", "zswap_load", "zcache_load", "zswap_decompress",
                 "zcomp_decompress", "lz4_sdecompress", "lz4_decompress_crypto",
                 "zs_map_object", "xa_ext_erase",
                 "xa_erase"]


def profile_section(out, prof):
    out.append("## Profile: time per call\n")
    out.append("One boot per kernel, throttled disk, the mixed workload once per backend, with "
               "the function_graph tracer on the functions below (`BENCH_PROFILE`). The buffer "
               "keeps the newest 2 MiB of each CPU's trace, so these are the calls at the end "
               "of the run (its second read-back). A call's time includes the tracer's own "
               "cost for every traced call nested in it: compare like with like, innermost "
               "first. With zcache loaded, `zswap_store`/`zswap_load` (6.1: "
               "`zswap_frontswap_*`) time zcache's redirected path, the ftrace redirect "
               "included. These runs are not figures.\n")
    for kernel in sorted(prof, key=kernel_key):
        backends = [b for b in (peer_of(kernel), "zcache-lz4") if b in prof[kernel]]
        funcs = [f for f in PROFILE_ORDER if any(f in prof[kernel][b] for b in backends)]
        funcs += sorted({f for b in backends for f in prof[kernel][b]} - set(funcs))
        out.append(f"### {kernel}\n")
        out.append("| function | " + " | ".join(f"{b} calls | {b} us/call" for b in backends) + " |")
        out.append("|---|" + "---|---|" * len(backends))
        for func in funcs:
            cells = []
            for b in backends:
                calls, mean = prof[kernel][b].get(func, (None, None))
                cells += ["-", "-"] if calls is None else [str(calls), f"{mean:.1f}"]
            out.append(f"| `{func}` | " + " | ".join(cells) + " |")
        out.append("")


# The paths whose time is held against the compressor's (issue 13's 15%):
# per cache, (store or load, the path's function, the kernel functions
# zcache's ftrace redirect enters it through, the compressor's functions).
# 6.1's loads enter zcache through swap_readpage(), which also reads from
# disk: not timed.  zcache calls lz4 through crypto_comp where the kernel
# has it, through acomp's scomp otherwise, as zswap does.
SHARE_PATHS = {
    "zcache-lz4": [("store", "zcache_store", ("zswap_store", "zswap_frontswap_store"),
                    ("lz4_compress_crypto", "lz4_scompress")),
                   ("load", "zcache_load", ("zswap_load",),
                    ("lz4_decompress_crypto", "lz4_sdecompress"))],
    "zswap-lz4": [("store", "zswap_store", (), ("lz4_scompress",)),
                  ("store", "zswap_frontswap_store", (), ("lz4_scompress",)),
                  ("load", "zswap_load", (), ("lz4_sdecompress",)),
                  ("load", "zswap_frontswap_load", (), ("lz4_sdecompress",))],
}


def share_section(out, workdir):
    """The share of each path's time outside the compressor, from a profile
    boot whose repetitions alternate two function sets (BENCH_PROFILE_FUNCS):
    the paths' entry points alone, and the same with the compressor."""
    reps, traced = {}, {}
    comps = {c for paths in SHARE_PATHS.values() for _, _, _, cs in paths for c in cs}
    for p in records(workdir, "prof", "PROF"):
        key = (p["kernel"], p["backend"], p.get("rep", "1"))
        reps.setdefault(key, {})[p["func"]] = (int(p["calls"]), float(p["mean_us"]))
        # (which set a repetition traced: its set=N, or, in older runs,
        # whether a compressor shows up in it)
        traced.setdefault(key, p.get("set"))
    shows_comp = {key: bool(comps & set(funcs)) for key, funcs in reps.items()}
    set_comp = {}
    for key, n in traced.items():
        if n is not None:
            set_comp[key[0], n] = set_comp.get((key[0], n), False) or shows_comp[key]
    with_set = {key: set_comp.get((key[0], traced[key]), shows_comp[key]) for key in reps}
    # Only a boot that alternated the two sets has a share to give.
    if len(set(with_set.values())) < 2:
        return
    rows = []
    for kernel in sorted({k for k, _, _ in reps}, key=kernel_key):
        for backend, paths in SHARE_PATHS.items():
            all_reps = [f for (k, b, _), f in sorted(reps.items()) if k == kernel and b == backend]
            with_comp = [f for key, f in sorted(reps.items())
                         if key[0] == kernel and key[1] == backend and with_set[key]]
            for what, path, entries, candidates in paths:
                comp = "/".join(c for c in candidates if any(c in f for f in with_comp)) \
                    or candidates[0]
                # per repetition with the compressors traced: their share
                shares, path_us, comp_us, calls, ccalls = [], [], [], 0, 0
                for f in with_comp:
                    if path not in f or not f[path][0] or not f[path][1]:
                        continue
                    pt = f[path][0] * f[path][1]
                    ct = sum(f[c][0] * f[c][1] for c in candidates if c in f)
                    shares.append(1 - ct / pt)
                    path_us.append(f[path][1])
                    comp_us.append(ct / f[path][0])
                    calls += f[path][0]
                    ccalls += sum(f[c][0] for c in candidates if c in f)
                if not shares:
                    continue
                # per repetition: the entry point over the path, where
                # every call of the entry point is redirected (stores)
                redirect = []
                for f in all_reps:
                    for entry in entries:
                        if entry in f and path in f and \
                                abs(f[entry][0] - f[path][0]) <= f[path][0] // 50:
                            redirect.append(f[entry][1] - f[path][1])
                rows.append((kernel, backend, what, path, calls, med(path_us), comp, ccalls,
                             med(comp_us), med(shares), spread(shares),
                             spread(redirect) if redirect else (None, None),
                             med(redirect) if redirect else None))
    if not rows:
        return
    out.append("## The paths against the compressor\n")
    out.append("A profile boot whose repetitions alternate two sets of traced functions "
               "(`BENCH_PROFILE_FUNCS`): the paths' entry points alone, and the same with "
               "the compressor. In the repetitions that trace the compressor: **path us** "
               "is the path's time per call (calls that compress nothing included: zero "
               "pages, refusals), **compressor us** the compressor's time per call of the "
               "path, **outside** = 1 - compressor / path, the share of the path's time not "
               "spent in the compressor (the goal: at most 15%), median and range over the "
               "repetitions. It includes the tracer's own cost of the nested compressor "
               "call, which makes it higher. It counts every compressor call of the "
               "trace as the path's: for stores, where only the path compresses, that "
               "is exact; for loads, writeback's decompressions (zcache's worker, "
               "zswap's shrinker) count too, which makes it lower: compare the calls. "
               "zswap's load path counts its misses too (6.12, 7.3). "
               "**redirect us** is, in every repetition, the "
               "time of the kernel function zcache's ftrace redirect takes less zcache's "
               "path (where every call is redirected: the stores): the handler, the "
               "redirect and the stub, plus the tracer's cost of the nested path call. The "
               "trace keeps the end of each run, whose mix of calls differs between "
               "repetitions: compare within a repetition. Tracing slows every call: these "
               "are shares, not figures.\n")
    out.append("| kernel | backend | path | calls | path us | compressor | calls | "
               "compressor us | outside | redirect us |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for (kernel, backend, what, path, calls, path_us, comp, ccalls, comp_us, outside,
         (lo, hi), (rlo, rhi), redirect) in rows:
        rd = "-" if redirect is None else f"{redirect:.1f} [{rlo:.1f}..{rhi:.1f}]"
        out.append(f"| {kernel} | {backend} | {what}: `{path}` | {calls} | {path_us:.1f} | "
                   f"`{comp}` | {ccalls} | {comp_us:.1f} | {outside:.0%} [{lo:.0%}..{hi:.0%}] | "
                   f"{rd} |")
    out.append("")


def num(run, key, default=0.0):
    try:
        return float(run.get(key, default))
    except ValueError:
        return default


def elapsed(run):
    """The workload's own time (checkpoint waits excluded), in seconds."""
    if run["workload"] == "threads":
        return num(run, "fill") + num(run, "ops")
    if run["workload"] == "build":
        return num(run, "build")
    return num(run, "fill") + num(run, "verify") + num(run, "verify2")


def score(run):
    """Higher is better: ops/s for threads, 1/time otherwise."""
    if run["workload"] == "threads":
        return num(run, "ops_per_s")
    t = elapsed(run)
    return 1.0 / t if t > 0 else 0.0


def ratio_nz(run):
    """Compression ratio of the non-zero pages the backend held."""
    pool = num(run, "pool")
    nz = num(run, "held") - num(run, "zero")
    return nz * 4096 / pool if pool > 0 and nz > 0 else None


def meta_per_page(run):
    held = num(run, "held")
    if "meta" not in run or held <= 0:
        return None
    return num(run, "meta") / held


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def spread(values):
    values = [v for v in values if v is not None]
    return (min(values), max(values)) if values else (None, None)


def fmt(v, digits=2):
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return f"{v:.0f}"
    return f"{v:.{digits}f}"


def relative(cell, peer):
    """Speed of @cell relative to @peer: the median over the repetitions of
    the ratio within each repetition, so that drift common to a
    repetition cancels; with its min..max.  Falls back to the ratio of the
    medians where the repetitions do not pair up."""
    if not cell or not peer or not cell.score or not peer.score:
        return None, (None, None)
    mine = {r.get("rep"): score(r) for r in cell.runs}
    theirs = {r.get("rep"): score(r) for r in peer.runs}
    ratios = [mine[k] / theirs[k] for k in mine if k in theirs and theirs[k]]
    if not ratios:
        return cell.score / peer.score, (None, None)
    return statistics.median(ratios), (min(ratios), max(ratios))


class Cell:
    """The repetitions of one backend on one workload."""

    def __init__(self, runs):
        self.runs = [r for r in runs if r.get("ok") == "1"]
        self.failed = len(runs) - len(self.runs)
        self.score = med(score(r) for r in self.runs)

    def median(self, f):
        return med(f(r) for r in self.runs)

    def range(self, f):
        return spread(f(r) for r in self.runs)


def sys_per_page(r):
    """The guest's system time per page moved: swapped out or in, to the
    disk or the cache (a build's figure includes its jobs' other work)."""
    if "cstores" not in r:
        return None
    moved = sum(num(r, k) for k in ("pswpout", "pswpin", "hits", "cstores"))
    return num(r, "sys") * 1e6 / moved if moved else None


def group(runs):
    cells = {}
    for r in runs:
        cells.setdefault((r["kernel"], r["disk"], r["workload"], r["backend"]), []).append(r)
    return {k: Cell(v) for k, v in cells.items()}


def backends_of(runs, kernel, disk):
    seen = []
    for r in runs:
        if r["kernel"] == kernel and r["disk"] == disk and r["backend"] not in seen:
            seen.append(r["backend"])
    return seen


def perf_table(out, cells, kernel, disk, backends):
    peer_name = peer_of(kernel)
    out.append(f"Median over the repetitions; min..max in brackets. **x {peer_name}** is the "
               f"speed relative to {peer_name} (higher is better): the median of the ratios "
               f"within each repetition, so that drift common to a repetition cancels.\n")
    for w in WORKLOADS:
        present = [b for b in backends if (kernel, disk, w, b) in cells]
        if not present:
            continue
        peer = cells.get((kernel, disk, w, peer_name))
        out.append(f"#### {WORKLOAD_TEXT[w]}\n")
        unit = "ops/s" if w == "threads" else "time (s)"
        out.append(f"| backend | {unit} | x {peer_name} | phases (s) | pswpout | pswpin | disk I/Os r/w | user s | sys s | sys us/page | ratio | pool MiB | rejects | meta B/page |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for b in present:
            c = cells[(kernel, disk, w, b)]
            if not c.runs:
                out.append(f"| {b} | failed ({c.failed} runs) |" + " |" * 12)
                continue
            if w == "threads":
                f = lambda r: num(r, "ops_per_s")
            else:
                f = elapsed
            lo, hi = c.range(f)
            rel, (rlo, rhi) = relative(c, peer)
            if w == "threads":
                phases = f"fill {fmt(c.median(lambda r: num(r, 'fill')), 1)}, ops {fmt(c.median(lambda r: num(r, 'ops')), 1)}"
            elif w == "build":
                phases = "-"
            else:
                phases = "fill {}, read {}, reread {}".format(
                    fmt(c.median(lambda r: num(r, "fill")), 1),
                    fmt(c.median(lambda r: num(r, "verify")), 1),
                    fmt(c.median(lambda r: num(r, "verify2")), 1))
            pool = c.median(lambda r: num(r, "pool") / 1048576 if "pool" in r else None)
            dios = "{}/{}".format(fmt(c.median(lambda r: num(r, "dio_r") if "dio_r" in r else None), 0),
                                  fmt(c.median(lambda r: num(r, "dio_w") if "dio_w" in r else None), 0))
            out.append("| {} | {} [{}..{}] | {} [{}..{}] | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                b, fmt(c.median(f)), fmt(lo), fmt(hi), fmt(rel), fmt(rlo), fmt(rhi), phases,
                fmt(c.median(lambda r: num(r, "pswpout")), 0),
                fmt(c.median(lambda r: num(r, "pswpin")), 0),
                dios,
                fmt(c.median(lambda r: num(r, "user")), 1),
                fmt(c.median(lambda r: num(r, "sys")), 1),
                fmt(c.median(sys_per_page), 1),
                fmt(c.median(ratio_nz)) if b != "disk" and w != "random" else "-",
                fmt(pool, 1) if b != "disk" else "-",
                fmt(c.median(lambda r: num(r, "rejects")), 0) if b not in ("disk", "zram") else "-",
                fmt(c.median(meta_per_page), 1)))
        out.append("")


def writeback_table(out, cells, kernel, disk):
    """zcache with and without writeback, and the peers, where the pool fills."""
    rows = []
    zram = False
    for w in WRITEBACK_WORKLOADS:
        base = cells.get((kernel, disk, w, "zcache-lz4-nowb"))
        for b in writeback_backends(kernel):
            c = cells.get((kernel, disk, w, b))
            if not c or not c.runs:
                continue
            f = (lambda r: num(r, "ops_per_s")) if w == "threads" else elapsed
            rel, (lo, hi) = relative(c, base)

            def share(r):
                hits, disk_in = num(r, "hits"), num(r, "pswpin")
                if "hits" not in r or hits + disk_in == 0:
                    return None
                return hits / (hits + disk_in)
            # (zram, the cloud kernels' peer, is the swap device: no hits)
            if b == "zram":
                zram = True
                cache = ["-", "-", "-"]
            else:
                cache = [fmt(c.median(lambda r: num(r, "hits")), 0), fmt(c.median(share)),
                         fmt(c.median(lambda r: num(r, "wb")), 0)]
            rows.append("| {} | {} | {} | {} [{}..{}] | {} | {} | {} | {} |".format(
                w, b, fmt(c.median(f)), fmt(rel), fmt(lo), fmt(hi),
                fmt(c.median(lambda r: num(r, "pswpin")), 0), *cache))
    if not rows:
        return
    out.append("### What writeback buys\n")
    out.append("zcache-lz4 writes back (its default), zcache-lz4-nowb does not "
               "(writeback_enabled=N). **speed x nowb**: speed relative to zcache-lz4-nowb "
               "in the same repetition (higher is better; time for mixed and build, ops/s for "
               "threads). **hits**: faults the cache served (zcache's loads; zswap: zswpin or "
               "frontswap's loads); **cache share** = hits / (hits + pswpin); **written back**: "
               "pages the cache wrote to the disk (zcache's written_back; zswap's written-back "
               "pages or zswpwb)." + (" zram is the swap device itself: its swap-ins are "
                                      "pswpin, it has no hits and writes nothing back."
                                      if zram else "") + "\n")
    out.append("| workload | backend | time (s) or ops/s | speed x nowb | pswpin | hits | cache share | written back |")
    out.append("|---|---|---|---|---|---|---|---|")
    out.extend(rows)
    out.append("")


REFERENCE = "reference"


def targets(cells, kernel, disk):
    """(name, figure, met) for each target of issue 5."""
    peer = peer_of(kernel)
    # (a target names the peer where it is not zswap-lz4)
    label = "peer" if peer == PEER else f"peer ({peer})"

    def c(w, b):
        return cells.get((kernel, disk, w, b))

    def rel(w, b, other=peer):
        return relative(c(w, b), c(w, other))[0]

    rows = []

    def add(name, value, goal, met_if, spread=""):
        if value is None:
            rows.append((name, "not measured", "-"))
        elif goal == "-":
            rows.append((name, f"{value:.2f}{spread}", REFERENCE))
        else:
            rows.append((name, f"{value:.2f}{spread} (goal {goal})",
                         "met" if met_if(value) else "**not met**"))

    def add_speed(name, w, b, other, goal, met_if):
        value, (lo, hi) = relative(c(w, b), c(w, other))
        add(name, value, goal, met_if, f" [{lo:.2f}..{hi:.2f}]" if lo is not None else "")

    # (With zram the peer, the zram row below is this figure, with zram's goal.)
    if peer != "zram":
        add_speed("zero-heavy: zcache-lz4 speed / peer", "zero", "zcache-lz4", peer,
                  ">= 1.15", lambda v: v >= 1.15)
    add_speed("zero-heavy: zcache-lz4 speed / zram", "zero", "zcache-lz4", "zram",
              "> 1.00", lambda v: v > 1.0)
    add_speed(f"mixed: zcache-lz4 speed / {label}", "mixed", "zcache-lz4", peer,
              ">= 1.15", lambda v: v >= 1.15)
    add_speed(f"2-thread random: zcache-lz4 ops/s / {label}", "threads", "zcache-lz4", peer,
              ">= 1.15", lambda v: v >= 1.15)
    # Faster than swapping to the disk alone, on every workload a cache
    # is bought for (incompressible data has its own target below).
    for w, what in (("mixed", "speed"), ("zero", "speed"), ("threads", "ops/s"),
                    ("build", "speed")):
        add_speed(f"{TITLES_SHORT[w]}: zcache-lz4 {what} / disk", w, "zcache-lz4", "disk",
                  "> 1.00", lambda v: v > 1.0)
    add_speed("2-thread random, pool 50%: zcache-lz4-p50 ops/s / zram", "threads",
              "zcache-lz4-p50", "zram", ">= 1.00", lambda v: v >= 1.0)
    t = rel("random", "zcache-lz4", "disk")
    add("incompressible: zcache-lz4 time / disk", 1 / t if t else None, "<= 1.05", lambda v: v <= 1.05)
    t = rel("random", peer, "disk")
    add(f"incompressible: {peer} time / disk (reference)", 1 / t if t else None, "-", lambda v: True)
    for comp in ("lz4", "zstd"):
        z, p = c("mixed", f"zcache-{comp}"), c("mixed", f"zswap-{comp}")
        zr, pr = (z.median(ratio_nz) if z else None), (p.median(ratio_nz) if p else None)
        if zr and pr:
            add(f"ratio, {comp}: zcache / zswap ({fmt(zr)} vs {fmt(pr)})",
                zr / pr, ">= 1.00", lambda v: v >= 1.0)
    z = c("mixed", "zcache-lz4")
    add("metadata per stored page, zcache-lz4 (bytes)", z.median(meta_per_page) if z else None,
        "<= 16", lambda v: v <= 16)
    p = c("mixed", peer)
    add(f"metadata per stored page, {peer} (bytes, reference)", p.median(meta_per_page) if p else None,
        "-", lambda v: True)
    z = c("zero", "zcache-lz4")
    add("metadata per stored page, zcache-lz4, zero-heavy (bytes)", z.median(meta_per_page) if z else None,
        "<= 16", lambda v: v <= 16)
    return rows


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def plots(cells, runs, kernel, disk, resultsdir, date):
    """Speed relative to the peer per workload; compression ratio."""
    backends = backends_of(runs, kernel, disk)
    peer_name = peer_of(kernel)
    flavour = "-cloud" if is_cloud(kernel) else ""
    tag = f"{date}-{kernel.split('-')[0].replace('+deb12', '')}{flavour}-{disk}"
    data = os.path.join(resultsdir, f".{tag}.dat")
    with open(data, "w") as f:
        f.write("# workload " + " ".join(backends) + "\n")
        for w in WORKLOADS:
            peer = cells.get((kernel, disk, w, peer_name))
            if not peer or not peer.score:
                continue
            row = [w]
            for b in backends:
                x = cells.get((kernel, disk, w, b))
                v = relative(x, peer)[0]
                row.append(f"{v:.3f}" if v else "NaN")
            f.write(" ".join(row) + "\n")
    speed_png = os.path.join(resultsdir, f"{tag}-speed.png")
    cols = ", ".join((f"'' using {i + 2}" if i else f"'{data}' using 2:xtic(1)") +
                     f" title '{b}' lc rgb '{COLOURS.get(b, '#000000')}'"
                     for i, b in enumerate(backends))
    gnuplot(f"""
set terminal png size 1100,520
set output '{speed_png}'
set title "Speed relative to {peer_name} (1.0), {kernel}, {disk} disk; higher is better"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key outside right
set ylabel "x {peer_name}"
plot {cols}, 1 with lines lc rgb 'black' dt 2 notitle
""")
    ratio_png = os.path.join(resultsdir, f"{tag}-ratio.png")
    rdata = os.path.join(resultsdir, f".{tag}-ratio.dat")
    with open(rdata, "w") as f:
        for b in backends:
            x = cells.get((kernel, disk, "mixed", b))
            if b != "disk" and x and x.median(ratio_nz):
                f.write(f"{b} {x.median(ratio_nz):.3f}\n")
    if os.path.getsize(rdata):
        gnuplot(f"""
set terminal png size 900,420
set output '{ratio_png}'
set title "Compression ratio of non-zero pages, mixed workload, {kernel}"
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set yrange [0:*]
set grid ytics
set xtics rotate by -30
plot '{rdata}' using 2:xtic(1) notitle
""")
    else:
        ratio_png = None
    os.unlink(data)
    os.unlink(rdata)
    return speed_png, ratio_png


def main():
    workdir, resultsdir, date = sys.argv[1:4]
    runs = parse(workdir)
    prof = parse_profiles(workdir)
    if not runs and not prof:
        sys.exit(f"report: no runs in {workdir}")
    cells = group(runs)
    kernels = []
    for r in runs:
        if (r["kernel"], r["disk"]) not in kernels:
            kernels.append((r["kernel"], r["disk"]))
    # kernels in version order, the latency-modelled disks first
    kernels.sort(key=lambda kd: (kernel_key(kd[0]),
                                 DISK_ORDER.index(kd[1]) if kd[1] in DISK_ORDER else len(DISK_ORDER)))
    models = parse_models(workdir)
    reps = max((int(r.get("rep", 1)) for r in runs), default=0)
    failed = [r for r in runs if r.get("ok") != "1"]

    out = [f"# zcache benchmark, {date}\n"]
    commit = os.path.join(workdir, "commit")
    if os.path.exists(commit):
        with open(commit) as f:
            out.append(f"zcache at commit `{f.read().strip()}`.\n")
    out.append("Generated by `make bench` (bench/bench.sh, bench/report.py). "
               f"{len(runs)} runs, {reps} repetitions interleaved (every backend runs a "
               "workload before any runs it again), "
               f"{len(failed)} failed runs. A run whose data did not verify byte for byte "
               "is a failure, not a figure.\n")
    out.append(f"Peer: stock zswap with lz4/zsmalloc, max_pool_percent=20, on the same kernel. "
               "zcache runs at its defaults (max_pool_percent=20); `zcache-lz4-p50` has the pool "
               "limit raised to 50%, `zcache-lz4-cN` keeps every page that compresses to N% of a page or less "
               "(max_compressed_percent=N, against 75; c100: every page that compresses at all), `zcache-lz4-strict` refuses "
               "the pages above 75% even while its pool has room (keep_poor_pages=N). zram is the only swap device, lz4, sized past the working "
               "set, without a memory limit. `zswap-default` is the kernel's own zswap defaults."
               + (f" Debian's cloud kernels (`cloud` in the release) are built without zswap: "
                  f"there the peer is {CLOUD_PEER}." if any(is_cloud(k) for k, _ in kernels) else "")
               + "\n")
    out.append("Guest: the test VM (TCG, 2 vCPUs), one boot per kernel and disk model; "
               "working sets are 1.25x the guest's RAM. Disk models: "
               + "; ".join(f"**{d}** = {DISK_TEXT[d]}" for d in DISK_ORDER) + ". "
               "The latency-modelled disks are zdelay0 (tests/kmod/zdelay.c) over the raw disk: "
               "a request completes no sooner than its latency after submission; the slowdown is "
               "bench/calib.c's lz4 and page-copy time in the guest over the host's, measured in "
               "each boot (the table below). "
               "Columns: disk I/Os = requests the disk completed (reads/writes, after merging); "
               "sys us/page = the guest's system time over the pages swapped out or in, to the disk "
               "or the cache; ratio = non-zero pages held x 4096 / pool bytes; rejects = "
               "stores the backend refused; meta = bytes of index and entry per held page beyond "
               "the compressed data (zcache: its XArray nodes and 2-byte headers, counted; zswap: "
               "its zswap_entry slab object); all read while the workload held its pages.\n")

    if models:
        out.append("| kernel | disk | device us (read, write) | guest slowdown | zdelay0 us (read, write) |")
        out.append("|---|---|---|---|---|")
        for (kernel, disk), m in sorted(models.items(), key=lambda km: (kernel_key(km[0][0]), km[0][1])):
            out.append(f"| {kernel} | {disk} | {m.get('device_us', '-')} | {m.get('factor', '-')}x | "
                       f"{m.get('read_us', '-')}, {m.get('write_us', '-')} |")
        out.append("")

    for kernel, disk in kernels:
        backends = backends_of(runs, kernel, disk)
        out.append(f"## {kernel}, {disk} disk\n")
        if is_cloud(kernel):
            out.append(f"Built without zswap: the peer is {peer_of(kernel)}.\n")
        rows = targets(cells, kernel, disk)
        if any(v != "not measured" for _, v, _ in rows):
            out.append("### Targets\n")
            out.append("| target | figure | |")
            out.append("|---|---|---|")
            for name, value, met in rows:
                if value != "not measured":
                    out.append(f"| {name} | {value} | {met} |")
            out.append("")
        speed_png, ratio_png = plots(cells, runs, kernel, disk, resultsdir, date)
        out.append(f"![speed]({os.path.basename(speed_png)})\n")
        if ratio_png:
            out.append(f"![ratio]({os.path.basename(ratio_png)})\n")
        writeback_table(out, cells, kernel, disk)
        out.append("### Figures\n")
        perf_table(out, cells, kernel, disk, backends)

    if prof:
        profile_section(out, prof)
        share_section(out, workdir)

    if failed:
        out.append("## Failed runs\n")
        for r in failed:
            out.append(f"- {r['kernel']} {r['disk']} rep {r.get('rep')} {r['workload']} "
                       f"{r['backend']}: {r.get('why', 'data did not verify')}")
        out.append("")
    notes = os.path.join(resultsdir, f"{date}-notes.md")
    if os.path.exists(notes):
        with open(notes) as f:
            out.append(f.read())
    with open(os.path.join(resultsdir, f"{date}.md"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
