"""Plotly figures for the AEAD page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.aead.analysis import AeadAnalysis, CaseKey
from phpcb.presentation.formatting import size
from phpcb.presentation.plotting import (
    COLORWAY,
    INTERVAL_HOVER,
    MEDIAN_IN_RUN,
    Point,
    figure_data,
    interval_points,
    label,
    throughput_error_bars,
)

ENCRYPT_DECRYPT_PAYLOAD = 1024 * 1024


# One chart per question, at most 6 series each (12 on one axis could not be told apart):
# (key, title, which cases belong).
THROUGHPUT_GROUPS: tuple[tuple[str, str, Callable[[CaseKey], bool]], ...] = (
    (
        "aead-throughput",
        "OpenSSL: GCM vs CCM vs ChaCha20-Poly1305, encryption throughput by payload "
        f"(16-byte tags, no AAD; error bars: {MEDIAN_IN_RUN.text})",
        lambda k: k.library == "openssl" and k.tag_bytes == 16,
    ),
    (
        "aead-throughput-ccm-tags",
        "CCM with 8-, 12- and 16-byte tags, encryption throughput by payload "
        f"(no AAD; error bars: {MEDIAN_IN_RUN.text})",
        lambda k: k.library == "openssl" and k.algorithm.endswith("-ccm"),
    ),
    (
        "aead-throughput-sodium",
        "libsodium vs OpenSSL for the same algorithms, encryption throughput by payload "
        f"(no AAD; error bars: {MEDIAN_IN_RUN.text})",
        lambda k: k.library == "sodium" or (k.tag_bytes == 16 and k.algorithm in ("aes-256-gcm", "chacha20-poly1305")),
    ),
)


def throughput_vs_payload(
    analysis: AeadAnalysis, title: str, belongs: Callable[[CaseKey], bool]
) -> dict[str, Any] | None:
    traces = []
    for index, variant in enumerate(analysis.variants):
        cases = [c for p in analysis.payloads if (c := analysis.case(variant, "encrypt", p)) is not None]
        cases = [c for c in cases if belongs(c.key)]
        if not cases:
            continue
        traces.append(
            go.Scatter(
                x=[c.key.payload_bytes for c in cases],
                y=[round(c.mb_per_s, 3) for c in cases],
                error_y=throughput_error_bars(cases),
                mode="lines+markers",
                name=html.escape(variant),
                # A variant keeps its colour on every chart.
                line={"color": COLORWAY[index % len(COLORWAY)]},
                customdata=[size(c.key.payload_bytes) for c in cases],
                hovertemplate="%{fullData.name}<br>%{customdata}: %{y:,.3~r} MB/s<extra></extra>",
            )
        )
    if not traces:
        return None
    return figure_data(
        traces,
        {
            "title": title,
            "xaxis": {
                "type": "log",
                "title": "payload",
                "tickvals": analysis.payloads,
                "ticktext": [size(p) for p in analysis.payloads],
            },
            "yaxis": {"type": "log", "title": "MB/s (log)"},
        },
    )


def encrypt_vs_decrypt(analysis: AeadAnalysis) -> dict[str, Any]:
    payload = ENCRYPT_DECRYPT_PAYLOAD if ENCRYPT_DECRYPT_PAYLOAD in analysis.payloads else analysis.payloads[-1]
    traces = []
    for operation in ("encrypt", "decrypt"):
        cases = [c for v in analysis.variants if (c := analysis.case(v, operation, payload)) is not None]
        traces.append(
            go.Bar(
                x=[html.escape(c.key.variant) for c in cases],
                y=[round(c.mb_per_s, 3) for c in cases],
                error_y=throughput_error_bars(cases),
                name=operation,
            )
        )
    return figure_data(
        traces,
        {
            "title": f"Encrypt vs decrypt at {size(payload)} (no AAD; error bars: {MEDIAN_IN_RUN.text})",
            "barmode": "group",
            "yaxis": {"title": "MB/s"},
        },
    )


NATIVE_HOVER = "one measurement (openssl speed -evp): no interval"


def php_vs_native(analysis: AeadAnalysis) -> dict[str, Any]:
    """PHP's median throughput with its CI beside openssl speed's one figure, per block size."""
    traces = []
    for block in sorted({f.block_bytes for f in analysis.fidelity}):
        rows = [f for f in analysis.fidelity if f.block_bytes == block]
        names = [label(f.algorithm) for f in rows]
        traces.append(
            go.Bar(
                x=names,
                **interval_points(
                    "y", [Point(f.php_mb_per_s, *f.php_mb_per_s_ci) for f in rows], MEDIAN_IN_RUN, " MB/s"
                ),
                name=f"PHP, {size(block)}",
                hovertemplate=f"%{{x}}, PHP, {size(block)}: {INTERVAL_HOVER}<extra></extra>",
            )
        )
        traces.append(
            go.Bar(
                x=names,
                y=[round(f.native_mb_per_s, 3) for f in rows],
                name=f"openssl speed, {size(block)}",
                hovertemplate=f"%{{x}}, openssl speed, {size(block)}: %{{y:,.4~r}} MB/s, {NATIVE_HOVER}<extra></extra>",
            )
        )
    return figure_data(
        traces,
        {
            "title": (
                "PHP openssl_encrypt vs the native limit (openssl speed), same run "
                f"(error bars: PHP's {MEDIAN_IN_RUN.text}; openssl speed is one measurement)"
            ),
            "barmode": "group",
            "yaxis": {"title": "MB/s"},
        },
    )


def all_figures(analysis: AeadAnalysis) -> dict[str, dict[str, Any]]:
    figures = {}
    for key, title, belongs in THROUGHPUT_GROUPS:
        figure = throughput_vs_payload(analysis, title, belongs)
        if figure is not None:
            figures[key] = figure
    figures["aead-encrypt-decrypt"] = encrypt_vs_decrypt(analysis)
    if analysis.fidelity:
        figures["aead-native"] = php_vs_native(analysis)
    return figures
