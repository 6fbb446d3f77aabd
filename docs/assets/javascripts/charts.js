// Draws every .pcb-chart from its data-figure JSON with the Plotly.js shipped in this site,
// and redraws the colours when the reader toggles Material's light/dark palette.
(function () {
  "use strict";

  function palette() {
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    var text = dark ? "#e2e4e9" : "#1f2430";
    var grid = dark ? "rgba(226,228,233,0.15)" : "rgba(31,36,48,0.12)";
    return {
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: text },
      "xaxis.gridcolor": grid,
      "yaxis.gridcolor": grid,
      "xaxis.zerolinecolor": grid,
      "yaxis.zerolinecolor": grid,
    };
  }

  function draw(element) {
    var figure = JSON.parse(element.getAttribute("data-figure"));
    var layout = Object.assign({ autosize: true, margin: { t: 60, r: 20, b: 60, l: 70 } }, figure.layout);
    Plotly.newPlot(element, figure.data, layout, { responsive: true, displaylogo: false })
      .then(function () { return Plotly.relayout(element, palette()); })
      .then(function () { element.setAttribute("data-rendered", "true"); });
  }

  function drawAll() {
    document.querySelectorAll(".pcb-chart").forEach(draw);
  }

  function followPalette() {
    new MutationObserver(function () {
      document.querySelectorAll(".pcb-chart[data-rendered]").forEach(function (element) {
        Plotly.relayout(element, palette());
      });
    }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { drawAll(); followPalette(); });
  } else {
    drawAll();
    followPalette();
  }
})();
