"""Plotly figures for the AEAD page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go

from ..formatting import size
from ..plotting import plain, throughput_error_bars
from .analysis import AeadAnalysis

ENCRYPT_DECRYPT_PAYLOAD = 1024 * 1024


def throughput_vs_payload(analysis: AeadAnalysis) -> dict[str, Any]:
    figure = go.Figure()
    for variant in analysis.variants:
        cases = [c for p in analysis.payloads if (c := analysis.case(variant, "encrypt", p)) is not None]
        figure.add_trace(
            go.Scatter(
                x=[c.key.payload_bytes for c in cases],
                y=[round(c.mb_per_s, 3) for c in cases],
                error_y=throughput_error_bars(cases),
                mode="lines+markers",
                name=html.escape(variant),
                hovertemplate="%{fullData.name}<br>%{x} B: %{y:,.1f} MB/s<extra></extra>",
            )
        )
    figure.update_layout(
        title="Encryption throughput by payload size (no AAD; error bars: 95% CI)",
        xaxis={
            "type": "log",
            "title": "payload",
            "tickvals": analysis.payloads,
            "ticktext": [size(p) for p in analysis.payloads],
        },
        yaxis={"type": "log", "title": "MB/s (log)"},
    )
    return plain(figure)


def encrypt_vs_decrypt(analysis: AeadAnalysis) -> dict[str, Any]:
    payload = ENCRYPT_DECRYPT_PAYLOAD if ENCRYPT_DECRYPT_PAYLOAD in analysis.payloads else analysis.payloads[-1]
    figure = go.Figure()
    for operation in ("encrypt", "decrypt"):
        cases = [c for v in analysis.variants if (c := analysis.case(v, operation, payload)) is not None]
        figure.add_trace(
            go.Bar(
                x=[html.escape(c.key.variant) for c in cases],
                y=[round(c.mb_per_s, 3) for c in cases],
                error_y=throughput_error_bars(cases),
                name=operation,
            )
        )
    figure.update_layout(
        title=f"Encrypt vs decrypt at {size(payload)} (no AAD; error bars: 95% CI)",
        barmode="group",
        yaxis={"title": "MB/s"},
    )
    return plain(figure)


def php_vs_native(analysis: AeadAnalysis) -> dict[str, Any]:
    figure = go.Figure()
    for block in sorted({f.block_bytes for f in analysis.fidelity}):
        rows = [f for f in analysis.fidelity if f.block_bytes == block]
        figure.add_trace(
            go.Bar(
                x=[html.escape(f.algorithm) for f in rows],
                y=[round(f.php_mb_per_s, 3) for f in rows],
                name=f"PHP, {size(block)}",
            )
        )
        figure.add_trace(
            go.Bar(
                x=[html.escape(f.algorithm) for f in rows],
                y=[round(f.native_mb_per_s, 3) for f in rows],
                name=f"openssl speed, {size(block)}",
            )
        )
    figure.update_layout(
        title="PHP openssl_encrypt vs the native limit (openssl speed), same run",
        barmode="group",
        yaxis={"title": "MB/s"},
    )
    return plain(figure)


def all_figures(analysis: AeadAnalysis) -> dict[str, dict[str, Any]]:
    figures = {
        "aead-throughput": throughput_vs_payload(analysis),
        "aead-encrypt-decrypt": encrypt_vs_decrypt(analysis),
    }
    if analysis.fidelity:
        figures["aead-native"] = php_vs_native(analysis)
    return figures
