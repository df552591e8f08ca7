"""The figures the benchmark reports from a list of samples."""

import statistics


def median(samples):
    return statistics.median(samples)


def p99(samples):
    """The sample 99% of the others are at or below (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def summary_ms(seconds):
    """Median and p99 of wall times, in milliseconds."""
    return {"median_ms": round(median(seconds) * 1e3, 3), "p99_ms": round(p99(seconds) * 1e3, 3),
            "runs": len(seconds)}
