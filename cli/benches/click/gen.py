"""Writes N `bench.Click` records (click.jr) as Hadoop CSV records, one a line, seeded:
the input of BENCHMARKS.md's `rcc convert --to parquet` benchmark.

URLs of ~40 characters from 8 paths and 100,000 ids, 10 countries, 6 status codes,
latencies of 3 decimals, 30% cached; timestamps ascending.

    python3 gen.py 10000000 > click.csv
"""

import random
import sys

PATHS = ["home", "cart", "search", "item", "checkout", "account", "help", "deals"]
COUNTRIES = ["DE", "FR", "US", "GB", "JP", "BR", "IN", "NL", "SE", "ES"]
STATUSES = [200, 200, 200, 301, 404, 500]


def main():
    n = int(sys.argv[1])
    rng = random.Random(42)
    out = sys.stdout
    ts = 1_700_000_000_000
    lines = []
    for _ in range(n):
        ts += rng.randrange(0, 100)
        url = f"https://shop.example.com/{rng.choice(PATHS)}/{rng.randrange(100_000)}"
        cached = "T" if rng.random() < 0.3 else "F"
        # Hadoop's CSV: ustrings begin with ', booleans are T or F.
        lines.append(
            f"{ts},'{url},'{rng.choice(COUNTRIES)},{rng.choice(STATUSES)},"
            f"{rng.randrange(1, 500_000) / 1000},{cached}\n"
        )
        if len(lines) == 100_000:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))


if __name__ == "__main__":
    main()
