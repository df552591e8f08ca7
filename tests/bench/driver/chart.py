"""The PNG chart, drawn by gnuplot from the results: median latency of each
command per plugin beside the spawn floor, and win-bridge's ADD, DEL and
STATUS as the node's endpoints grow (HNS calls and wall time)."""

import os
import shutil
import subprocess

COMMANDS = ("VERSION", "ADD", "CHECK", "DEL", "STATUS", "GC")


def _latency_data(results, path):
    scenarios = list(results["latency"])
    with open(path, "w") as f:
        f.write("command " + " ".join(f'"{name}"' for name in scenarios) + "\n")
        for command in COMMANDS:
            cells = [str(results["latency"][name].get(command, {}).get("median_ms", "NaN")) for name in scenarios]
            f.write(f"{command} " + " ".join(cells) + "\n")
    return len(scenarios)


def _scale_data(results, path):
    with open(path, "w") as f:
        f.write("existing add_calls del_calls add_ms del_ms status_calls status_ms\n")
        for level in results["scale"]["levels"]:
            status = level.get("STATUS", {})
            f.write(f"{level['existing']} {level['ADD']['hns_calls']} {level['DEL']['hns_calls']} "
                    f"{level['ADD']['median_ms']} {level['DEL']['median_ms']} "
                    f"{status.get('hns_calls', 'NaN')} {status.get('median_ms', 'NaN')}\n")


def draw(results, png_path):
    """Writes `png_path`; False when gnuplot is not installed."""
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        return False
    out_dir = os.path.dirname(os.path.abspath(png_path))
    latency_dat = os.path.join(out_dir, "latency.dat")
    columns = _latency_data(results, latency_dat)
    has_scale = bool(results.get("scale"))
    floor_ms = results["floor"]["median_ms"]
    # Headroom above the tallest bar for the key.
    top_ms = 1.45 * max(figures["median_ms"] for commands in results["latency"].values()
                        for figures in commands.values())
    script = [
        f"set terminal pngcairo size {1400 if has_scale else 900},520 font 'sans,10'",
        f"set output '{png_path}'",
        f"set multiplot layout 1,{2 if has_scale else 1}",
        "set title 'median latency per command (native, HNS emulator)'",
        "set style data histograms", "set style histogram clustered gap 1", "set style fill solid 0.8 border -1",
        "set ylabel 'ms'", "set key top left maxrows 3", "set grid ytics", f"set yrange [0:{top_ms:.2f}]",
        f"set arrow 1 from graph 0, first {floor_ms} to graph 1, first {floor_ms} nohead front dashtype 2 "
        "linecolor rgb 'black' linewidth 2",
        f"set label 1 'spawn floor {floor_ms} ms' at graph 0.99, first {floor_ms} right front offset 0,0.7",
        "plot " + ", ".join(f"'{latency_dat}' using {column + 2}:xtic(1) title columnheader({column + 2})"
                            for column in range(columns)),
        "unset arrow 1", "unset label 1",
    ]
    if has_scale:
        scale_dat = os.path.join(out_dir, "scale.dat")
        _scale_data(results, scale_dat)
        calls_top = 1.5 * max(level[command]["hns_calls"] for level in results["scale"]["levels"]
                              for command in ("ADD", "DEL", "STATUS") if command in level)
        script += [
            "set title 'win-bridge: one more pod beside N endpoints'", "set style data linespoints",
            "set logscale x", "set xrange [0.5:*]", "set xlabel 'existing endpoints (0 drawn at 1)'",
            "set ylabel 'median ms (log)'", "set logscale y", "set yrange [*:*]", "set y2label 'HNS calls'",
            "set y2tics", "set ytics nomirror", f"set y2range [0:{calls_top:.0f}]", "set key top left",
            f"plot '{scale_dat}' using ($1 < 1 ? 1 : $1):4 title 'ADD ms' linewidth 2, "
            f"'' using ($1 < 1 ? 1 : $1):5 title 'DEL ms' linewidth 2, "
            f"'' using ($1 < 1 ? 1 : $1):7 title 'STATUS ms' linewidth 2, "
            f"'' using ($1 < 1 ? 1 : $1):2 axes x1y2 title 'ADD HNS calls' dashtype 2, "
            f"'' using ($1 < 1 ? 1 : $1):3 axes x1y2 title 'DEL HNS calls' dashtype 2, "
            f"'' using ($1 < 1 ? 1 : $1):6 axes x1y2 title 'STATUS HNS calls' dashtype 2",
        ]
    script.append("unset multiplot")
    subprocess.run([gnuplot], input="\n".join(script) + "\n", text=True, check=True)
    return True
