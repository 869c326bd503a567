"""The report's figures (matplotlib, Agg backend: no display needed), each from a small table.

Each function writes one PNG and returns its file name. Intervals are drawn wherever the
number has one; distributions are drawn as step lines so several sides stay readable in one
panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

DPI = 110
_STYLES = ("-", "--", ":", "-.")


def _save(fig, out: Path, name: str) -> str:
    fig.tight_layout()
    fig.savefig(out / name, dpi=DPI)
    plt.close(fig)
    return name


def _label(row: dict) -> str:
    lead = f"{row['group']}: " if row.get("group") else ""
    return f"{lead}{row['a']} vs {row['b']}"


def forest(results: pl.DataFrame, out: Path, name: str = "forest.png") -> str:
    """A's win rate and A - B per deal with 95% intervals, one row per comparison."""
    rows = list(results.iter_rows(named=True))
    n = len(rows)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 1.2 + 0.42 * n), sharey=True)
    y = np.arange(n)[::-1]
    for ax, (mid, lo, hi, ref, title, scale) in zip(
            (left, right),
            (("win_rate", "win_low", "win_high", "even", "A's game win rate (95% Wilson CI)",
              100),
             ("diff_deal", "diff_deal_low", "diff_deal_high", 0.0,
              "A - B, points per deal (95% CI)", 1)), strict=True):
        m = np.array([r[mid] for r in rows]) * scale
        err = np.array([[r[mid] - r[lo], r[hi] - r[mid]] for r in rows]).T * scale
        ax.errorbar(m, y, xerr=err, fmt="o", color="tab:blue", ecolor="tab:blue", capsize=3)
        if ref == "even":  # each comparison's even share (1/2, or 1/T for T seatings)
            evens = np.array([r.get("even", 0.5) for r in rows]) * scale
            if len(set(evens.tolist())) == 1:
                ax.axvline(evens[0], color="grey", lw=1, ls="--")
            else:
                ax.vlines(evens, y - 0.4, y + 0.4, color="grey", lw=1, ls="--")
        else:
            ax.axvline(ref * scale, color="grey", lw=1, ls="--")
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    left.set_xlabel("%")
    right.set_xlabel("points")
    left.set_yticks(y, [_label(r) for r in rows], fontsize=8)
    return _save(fig, out, name)


def _groups(frame: pl.DataFrame) -> list[str]:
    return list(dict.fromkeys(frame["group"].to_list()))


def scores(hist: pl.DataFrame, out: Path, name: str = "scores.png") -> str:
    """Per-deal score distribution of each strategy's partnership, one panel per group."""
    groups = _groups(hist)
    fig, axes = plt.subplots(1, len(groups), figsize=(5.5 * len(groups), 3.8), squeeze=False)
    for ax, group in zip(axes[0], groups, strict=True):
        g = hist.filter(pl.col("group") == group).group_by(["side", "score"]).agg(
            pl.col("count").sum()).sort(["side", "score"])
        for i, side in enumerate(dict.fromkeys(g["side"].to_list())):
            s = g.filter(pl.col("side") == side)
            share = s["count"].to_numpy() / s["count"].sum()
            ax.step(s["score"].to_numpy(), share, where="post", ls=_STYLES[i % 4], label=side)
        ax.set_title(f"{group}: points per deal", fontsize=10)
        ax.set_xlabel("partnership's score in a deal (bins of 100)")
        ax.set_ylabel("share of deals")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    return _save(fig, out, name)


def deal_lengths(turns: pl.DataFrame, out: Path, name: str = "deal_length.png") -> str:
    """Deal length in turns: histogram and ECDF, one line per group."""
    fig, (hist_ax, ecdf_ax) = plt.subplots(1, 2, figsize=(11, 3.8))
    for i, group in enumerate(_groups(turns)):
        g = turns.filter(pl.col("group") == group).group_by("turns").agg(
            pl.col("count").sum()).sort("turns")
        t, c = g["turns"].to_numpy(), g["count"].to_numpy()
        hist_ax.step(t, c / c.sum(), where="mid", ls=_STYLES[i % 4], label=group)
        ecdf_ax.step(t, np.cumsum(c) / c.sum(), where="post", ls=_STYLES[i % 4], label=group)
    hist_ax.set_title("deal length: histogram", fontsize=10)
    hist_ax.set_ylabel("share of deals")
    ecdf_ax.set_title("deal length: ECDF", fontsize=10)
    ecdf_ax.set_ylabel("share of deals this short or shorter")
    for ax in (hist_ax, ecdf_ax):
        ax.set_xlabel("turns in the deal")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return _save(fig, out, name)


def milestones(hist: pl.DataFrame, out: Path, name: str = "milestones.png") -> str:
    """Share of partnerships opened, and of players on their Foot, by each turn of a deal."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    groups = _groups(hist)
    for ax, event, title in zip(axes, ("open", "foot"),
                                ("partnership has opened", "player has reached the Foot"),
                                strict=True):
        for gi, group in enumerate(groups):
            g = hist.filter((pl.col("group") == group) & (pl.col("event") == event)).group_by(
                ["side", "turn"]).agg(pl.col("count").sum()).sort(["side", "turn"])
            for side in dict.fromkeys(g["side"].to_list()):
                s = g.filter(pl.col("side") == side)
                total = s["count"].sum()
                reached = s.filter(pl.col("turn") >= 0)
                label = f"{group}: {side}" if len(groups) > 1 else side
                ax.step(reached["turn"].to_numpy(), np.cumsum(reached["count"].to_numpy())
                        / total, where="post", ls=_STYLES[gi % 4], label=label)
        ax.set_title(f"share of deals in which the {title}, by turn", fontsize=10)
        ax.set_xlabel("turn of the deal")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=6)
        ax.grid(alpha=0.3)
    return _save(fig, out, name)


def effect(results: pl.DataFrame, param: str, out: Path, name: str = "sweep.png") -> str:
    """A sweep: A - B per deal and A's win rate against the swept value, error bars 95%."""
    groups = _groups(results)
    many = len(groups) > 6  # then one legend beside the plots, and colours that do not repeat
    fig, (diff_ax, win_ax) = plt.subplots(1, 2, figsize=(13 if many else 11, 3.8))
    colours = plt.get_cmap("tab20" if many else "tab10")
    for i, group in enumerate(groups):
        g = results.filter(pl.col("group") == group)
        x = np.array([float(v) for v in g["value"].to_list()]) + (i - (len(groups) - 1) / 2) * 0.06
        for ax, mid, lo, hi, scale in ((diff_ax, "diff_deal", "diff_deal_low",
                                        "diff_deal_high", 1),
                                       (win_ax, "win_rate", "win_low", "win_high", 100)):
            m = g[mid].to_numpy() * scale
            err = np.stack([m - g[lo].to_numpy() * scale, g[hi].to_numpy() * scale - m])
            ax.errorbar(x, m, yerr=err, fmt="o", linestyle=_STYLES[i % 4], capsize=3,
                        label=group, color=colours(i % colours.N))
    diff_ax.axhline(0, color="grey", lw=1, ls="--")
    for even in sorted(set(results["even"].to_list()) if "even" in results.columns else {0.5}):
        win_ax.axhline(100 * even, color="grey", lw=1, ls="--")
    diff_ax.set_title("A - B, points per deal (95% CI)", fontsize=10)
    win_ax.set_title("A's game win rate, % (95% Wilson CI)", fontsize=10)
    ticks = sorted({float(v) for v in results["value"].to_list()})
    for ax in (diff_ax, win_ax):
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.set_xlabel(param)
        ax.grid(alpha=0.3)
    if many:
        win_ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    else:
        for ax in (diff_ax, win_ax):
            ax.legend(fontsize=8)
    return _save(fig, out, name)


def variants(table: pl.DataFrame,
             panels: Sequence[tuple[str, str, float, float | str | None]],
             out: Path, name: str = "variants.png") -> str:
    """The rule-set comparison: one bar per profile per panel, 95% error bars.

    ``panels`` are (column, title, scale, reference); the column's ``_low``/``_high`` give the
    error bars; a panel with a reference value (50% for a win rate) shows points around a
    dashed line at it, where bars from zero would hide the difference."""
    cols = 3
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    groups = table["group"].to_list()
    x = np.arange(len(groups))
    for ax, (column, title, scale, ref) in zip(axes.ravel(), panels, strict=False):
        m = table[column].to_numpy() * scale
        err = np.stack([m - table[f"{column}_low"].to_numpy() * scale,
                        table[f"{column}_high"].to_numpy() * scale - m])
        if ref is None:
            ax.bar(x, m, yerr=err, capsize=4, color="tab:blue", alpha=0.75)
        else:
            ax.errorbar(x, m, yerr=err, fmt="o", capsize=4, color="tab:blue")
            if ref == "even":  # each rule set's even share: 1 / seatings
                ax.hlines(table["even"].to_numpy() * scale, x - 0.3, x + 0.3, color="grey",
                          lw=1, ls="--")
            else:
                ax.axhline(ref, color="grey", lw=1, ls="--")
            ax.set_xlim(-0.5, len(groups) - 0.5)
        ax.set_xticks(x, groups, fontsize=8, rotation=15)
        ax.set_title(title, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes.ravel()[len(panels):]:
        ax.axis("off")
    return _save(fig, out, name)


_STATE_STYLE = {"complete": ("o", "tab:blue"), "pruned": ("x", "tab:grey"),
                "cut": ("s", "tab:orange")}


def tune_history(trials: pl.DataFrame, even: float, out: Path,
                 name: str = "tune_history.png") -> str:
    """A tuning study: each trial's share of games won at its last rung, in trial order."""
    fig, ax = plt.subplots(figsize=(11, 3.8))
    for state, (marker, colour) in _STATE_STYLE.items():
        s = trials.filter(pl.col("state") == state)
        if s.height:
            ax.scatter(s["trial"].to_numpy(), 100 * s["share_won"].to_numpy(), marker=marker,
                       color=colour, s=18, label=state)
    done = trials.filter(pl.col("state") == "complete").sort("trial")
    if done.height:
        best = np.maximum.accumulate(done["share_won"].to_numpy())
        ax.step(done["trial"].to_numpy(), 100 * best, where="post", color="tab:blue", lw=1,
                label="best so far (complete)")
    ax.axhline(100 * even, color="grey", lw=1, ls="--")
    ax.set_xlabel("trial")
    ax.set_ylabel("share of games won, %")
    ax.set_title("share won at the last rung reached", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _save(fig, out, name)


def tune_slices(trials: pl.DataFrame, params: Sequence[str], even: float, out: Path,
                name: str = "tune_knobs.png") -> str:
    """Each searched knob: the first rung's share of wins of every trial against its value."""
    cols = 4
    rows = -(-len(params) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.8 * rows), squeeze=False)
    rng = np.random.default_rng(0)  # jitter only; the data are not random
    for ax, param in zip(axes.ravel(), params, strict=False):
        x = trials[param].cast(pl.Float64).to_numpy()
        y = 100 * trials["first_rung"].to_numpy()
        spread = (np.nanmax(x) - np.nanmin(x)) or 1.0
        ax.scatter(x + rng.uniform(-0.015, 0.015, len(x)) * spread, y, s=8, alpha=0.6)
        ax.axhline(100 * even, color="grey", lw=1, ls="--")
        ax.set_title(param, fontsize=9)
        ax.set_ylabel("% won, first rung", fontsize=8)
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[len(params):]:
        ax.axis("off")
    return _save(fig, out, name)


def ladder(rows: Sequence[dict], out: Path, anchor: str | None,
           name: str = "ladder.png") -> str:
    """Ratings on the Elo scale with 95% intervals, strongest at the top."""
    n = len(rows)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.45 * n))
    y = np.arange(n)[::-1]
    r = np.array([row["rating"] for row in rows])
    err = np.array([[row["rating"] - row["low"], row["high"] - row["rating"]] for row in rows]).T
    ax.errorbar(r, y, xerr=err, fmt="o", capsize=4, color="tab:blue")
    ax.axvline(0, color="grey", lw=1, ls="--")
    ax.set_yticks(y, [row["strategy"] for row in rows])
    ax.set_xlabel("rating (Elo scale: 400 points = 10 to 1 odds)"
                  + (f"; {anchor} = 0" if anchor else "; mean = 0"))
    ax.set_title("Bradley-Terry ratings with 95% intervals", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, out, name)


def head_to_head(names: Sequence[str], observed: np.ndarray, out: Path,
                 name: str = "head_to_head.png") -> str:
    """Observed score of each row strategy against each column strategy (share of the
    pairwise comparisons won, ties half); blank where they did not meet."""
    n = len(names)
    fig, ax = plt.subplots(figsize=(1.6 + 0.9 * n, 1.2 + 0.8 * n))
    shown = np.ma.masked_invalid(100 * observed)
    image = ax.imshow(shown, cmap="RdBu", vmin=0, vmax=100)
    for i in range(n):
        for j in range(n):
            if np.isfinite(observed[i, j]):
                ax.text(j, i, f"{100 * observed[i, j]:.1f}", ha="center", va="center",
                        fontsize=8)
    ax.set_xticks(range(n), names, rotation=30, fontsize=8)
    ax.set_yticks(range(n), names, fontsize=8)
    ax.set_title("row's score against column, %", fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.046)
    return _save(fig, out, name)


def holding(table: pl.DataFrame, out: Path, name: str = "holding.png") -> str:
    """Holding minus melding per decision with 95% intervals, one panel per rule set, one
    row per situation (analysis.statistics.holding.effects_table)."""
    groups = list(dict.fromkeys(table["group"].to_list()))
    cases = list(dict.fromkeys(zip(table["situation"].to_list(), table["case"].to_list(),
                                   strict=True)))
    cols = min(3, len(groups))
    nrows = -(-len(groups) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.6 * cols + 1.6, 0.8 + 0.22 * len(cases)
                                                   * nrows), squeeze=False, sharey=True)
    y = {case: i for i, case in enumerate(reversed(cases))}
    for ax, group in zip(axes.ravel(), groups, strict=False):
        g = table.filter(pl.col("group") == group)
        pos = np.array([y[(s, c)] for s, c in zip(g["situation"], g["case"], strict=True)])
        m = g["mean"].to_numpy()
        err = np.stack([m - g["low"].to_numpy(), g["high"].to_numpy() - m])
        clear = (g["low"].to_numpy() > 0) | (g["high"].to_numpy() < 0)
        for mask, colour in ((clear, "tab:blue"), (~clear, "tab:grey")):
            ax.errorbar(m[mask], pos[mask], xerr=err[:, mask], fmt="o", ms=3, capsize=2,
                        color=colour)
        ax.axvline(0, color="grey", lw=1, ls="--")
        player = g["player"][0]
        ax.set_title(group if group.endswith(f", {player}") else f"{group} ({player})",
                     fontsize=9)
        ax.set_xlabel("holding - melding, points per decision", fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_yticks(list(y.values()), ["all decisions" if c == "all" else c for _, c in y],
                      fontsize=7)
    for ax in axes.ravel()[len(groups):]:
        ax.axis("off")
    return _save(fig, out, name)


def budget_curve(table: pl.DataFrame, out: Path, name: str = "search-budget.png") -> str:
    """A search player's win rate against its opponent (95% intervals) by its cost in ms per
    decision, one point per budget, labelled with the budget: how much strength each
    millisecond buys, the curve its defaults are read off."""
    rows = list(table.iter_rows(named=True))
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    x = np.array([r["ms_per_decision"] for r in rows])
    y = np.array([100 * r["win_rate"] for r in rows])
    err = np.array([[100 * (r["win_rate"] - r["lo"]) for r in rows],
                    [100 * (r["hi"] - r["win_rate"]) for r in rows]])
    ax.errorbar(x, y, yerr=err, fmt="o-", capsize=3)
    for xi, yi, r in zip(x, y, rows, strict=True):
        ax.annotate(r["budget"], (xi, yi), textcoords="offset points", xytext=(6, -12),
                    fontsize=8)
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")  # a doubling of the budget doubles the cost: equal steps on a log axis
    ax.set_xticks(x, [f"{v:g}" for v in x])  # the measured costs, not powers of ten
    ax.minorticks_off()
    ax.set_xlabel("ms per decision (mean, one core)")
    ax.set_ylabel(f"game wins against {rows[0]['opponent']} (%)")
    ax.grid(alpha=0.3)
    return _save(fig, out, name)
