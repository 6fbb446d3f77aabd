// Draws every .pcb-chart from its data-figure JSON with the Plotly.js shipped in this site,
// redraws the colours when the reader toggles Material's light/dark palette, and puts each title
// above its chart as a wrapping caption with a permalink and its data (the toolbar is hidden on phones).
// Plotly.js (4.6 MB, about a second to parse on a laptop, more on a phone) is loaded only by pages
// that have a chart, from beside this script.
(function () {
  "use strict";

  var NARROW = 700; // px: below this the toolbar would sit on the title, and hover replaces it anyway
  var SELF = document.currentScript ? document.currentScript.src : "";
  var PLOTLY = SELF.replace(/charts\.js(\?.*)?$/, "plotly.min.js");

  // Every axis the figure has (xaxis, yaxis, and overlays such as the every-cipher chart's top
  // xaxis2): an axis left out keeps Plotly's white grid, which glares on the dark background.
  function axes(layout) {
    var names = ["xaxis", "yaxis"];
    Object.keys(layout || {}).forEach(function (key) {
      if (/^[xy]axis[0-9]+$/.test(key)) { names.push(key); }
    });
    return names;
  }

  function palette(layout) {
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    var text = dark ? "#e2e4e9" : "#1f2430";
    var grid = dark ? "rgba(226,228,233,0.15)" : "rgba(31,36,48,0.12)";
    var colours = {
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: text },
    };
    axes(layout).forEach(function (axis) {
      colours[axis + ".gridcolor"] = grid;
      colours[axis + ".zerolinecolor"] = grid;
    });
    return { text: text, layout: colours };
  }

  // Error bars are drawn per trace, so the layout's colours do not reach them: restyle them too,
  // or they vanish against the dark background.
  function recolourErrorBars(element, colour) {
    var done = Promise.resolve();
    ["error_x", "error_y"].forEach(function (axis) {
      var traces = [];
      element.data.forEach(function (trace, index) {
        if (trace[axis]) { traces.push(index); }
      });
      if (traces.length) {
        var update = {};
        update[axis + ".color"] = colour;
        done = done.then(function () { return Plotly.restyle(element, update, traces); });
      }
    });
    return done;
  }

  // Reference and limit lines (layout shapes), labels and their arrows are neutral: they take the text colour.
  function neutralLines(layout, colour) {
    var update = {};
    (layout.shapes || []).forEach(function (_, index) { update["shapes[" + index + "].line.color"] = colour; });
    (layout.annotations || []).forEach(function (_, index) {
      update["annotations[" + index + "].font.color"] = colour;
      update["annotations[" + index + "].arrowcolor"] = colour; // a label's arrow to its point
    });
    return update;
  }

  // The first drawing takes the palette's colours with its figure: each later relayout redraws the chart,
  // and the Machines page draws 30 of them. applyPalette recolours a drawn chart when the palette changes.
  function paletteLayout(layout) {
    var colours = palette(layout);
    var coloured = Object.assign({}, layout, {
      paper_bgcolor: colours.layout.paper_bgcolor,
      plot_bgcolor: colours.layout.plot_bgcolor,
      font: Object.assign({}, layout.font, colours.layout.font),
    });
    axes(layout).forEach(function (axis) {
      coloured[axis] = Object.assign({}, layout[axis], {
        gridcolor: colours.layout[axis + ".gridcolor"],
        zerolinecolor: colours.layout[axis + ".zerolinecolor"],
      });
    });
    coloured.shapes = (layout.shapes || []).map(function (shape) {
      return Object.assign({}, shape, { line: Object.assign({}, shape.line, { color: colours.text }) });
    });
    coloured.annotations = (layout.annotations || []).map(function (note) {
      return Object.assign({}, note, {
        font: Object.assign({}, note.font, { color: colours.text }),
        arrowcolor: colours.text,
      });
    });
    return coloured;
  }

  function paletteData(data) {
    var text = palette({}).text;
    return data.map(function (trace) {
      var coloured = Object.assign({}, trace);
      ["error_x", "error_y"].forEach(function (axis) {
        if (trace[axis]) { coloured[axis] = Object.assign({}, trace[axis], { color: text }); }
      });
      return coloured;
    });
  }

  function applyPalette(element) {
    var colours = palette(element.layout);
    var update = Object.assign({}, colours.layout, neutralLines(element.layout, colours.text));
    return Plotly.relayout(element, update).then(function () {
      return recolourErrorBars(element, colours.text);
    });
  }

  function titleText(layout) {
    var title = layout.title;
    return typeof title === "string" ? title : (title && title.text) || "";
  }

  // The title is HTML above the chart, not Plotly's: Plotly never wraps a title (on a phone it is
  // clipped) and its toolbar sits on top of it. The caption wraps, and links to the chart.
  function caption(element, text) {
    var head = document.createElement("p");
    head.className = "pcb-chart-title";
    var title = document.createElement(element.id ? "a" : "span");
    title.textContent = text;
    if (element.id) { title.href = "#" + element.id; }
    head.appendChild(title);
    var csv = element.getAttribute("data-csv");
    if (csv) {
      var link = document.createElement("a");
      link.className = "pcb-chart-data";
      link.href = csv;
      link.setAttribute("download", "");
      link.textContent = "data (CSV)";
      head.appendChild(document.createTextNode(" "));
      head.appendChild(link);
    }
    element.parentNode.insertBefore(head, element);
  }

  function draw(element) {
    plot(element, captioned(element));
  }

  // The chart's figure, its title put above it as its caption.
  function captioned(element) {
    var figure = JSON.parse(element.getAttribute("data-figure"));
    var text = titleText(figure.layout);
    if (text) { caption(element, text); }
    return figure;
  }

  function plot(element, figure) {
    var layout = Object.assign({ autosize: true }, figure.layout, {
      title: { text: "" },
      margin: Object.assign({ t: 20, r: 20, b: 60, l: 70 }, figure.layout.margin || {}),
    });
    ["xaxis", "yaxis"].forEach(function (axis) {
      layout[axis] = Object.assign({ automargin: true }, layout[axis] || {});
    });
    var config = {
      responsive: true,
      displaylogo: false,
      displayModeBar: window.innerWidth < NARROW ? false : "hover",
    };
    var data = element.getBoundingClientRect().width < NARROW ? narrowHeatmaps(figure.data, layout) : figure.data;
    Plotly.newPlot(element, paletteData(data), paletteLayout(layout), config)
      .then(function () { return logTicks(element); })
      .then(function () { return wrapLabels(element); })
      .then(function () { return settle(element); })
      .then(function () { element.setAttribute("data-rendered", "true"); });
  }

  // A heatmap narrower than NARROW (Argon2's memory × threads grid on a phone) is drawn with its longer axis
  // down the page, and gives its colour bar's width to its cells: each cell prints its value, which the
  // colour bar only approximates, in a size a phone can read. Its marks (layout shapes) follow the cells.
  var HEATMAP_TEXT_PX = 12;

  function transposed(rows) {
    if (!Array.isArray(rows) || !Array.isArray(rows[0])) { return rows; }
    return rows[0].map(function (_, column) { return rows.map(function (row) { return row[column]; }); });
  }

  function swappedHover(template) {
    return typeof template === "string"
      ? template.replace(/%\{x\}/g, "\u0000").replace(/%\{y\}/g, "%{x}").replace(/\u0000/g, "%{y}")
      : template;
  }

  function narrowHeatmaps(data, layout) {
    if (!data.length || !data.every(function (trace) { return trace.type === "heatmap"; })) { return data; }
    var turn = data.every(function (trace) { return (trace.x || []).length > (trace.y || []).length; });
    if (turn) {
      // The old rows are the new columns: each label on two lines ("p=8 > cores"), upright.
      var columns = [];
      data.forEach(function (trace) {
        (trace.y || []).forEach(function (c) { if (columns.indexOf(c) < 0) { columns.push(c); } });
      });
      var xaxis = layout.xaxis;
      layout.xaxis = Object.assign({}, layout.yaxis, {
        tickangle: 0,
        tickmode: "array",
        tickvals: columns,
        ticktext: columns.map(function (c) { return String(c).replace(" ", "<br>"); }),
      });
      layout.yaxis = xaxis;
      layout.shapes = (layout.shapes || []).map(function (shape) {
        return Object.assign({}, shape, {
          x0: shape.y0, x1: shape.y1, y0: shape.x0, y1: shape.x1, xref: shape.yref, yref: shape.xref,
        });
      });
    }
    return data.map(function (trace) {
      var narrow = Object.assign({}, trace, {
        showscale: false,
        textfont: Object.assign({ size: HEATMAP_TEXT_PX }, trace.textfont || {}),
      });
      if (turn) {
        Object.assign(narrow, {
          x: trace.y, y: trace.x, z: transposed(trace.z), text: transposed(trace.text),
          customdata: transposed(trace.customdata), hovertemplate: swappedHover(trace.hovertemplate),
        });
      }
      return narrow;
    });
  }

  function compact(value) {
    if (value >= 1e6) { return value / 1e6 + "M"; }
    if (value >= 1e3) { return value / 1e3 + "k"; }
    return String(Number(value.toPrecision(3)));
  }

  // A log axis labels whole values only (1, 2, 5, 10, 20, 50, … over a short range; powers of ten
  // over a long one): Plotly's own minor labels are bare digits ("2", "5") that read as values.
  function logTicks(element) {
    var update = {};
    Object.keys(element._fullLayout).filter(function (key) { return /^[xy]axis\d*$/.test(key); }).forEach(function (name) {
      var axis = element._fullLayout[name];
      var given = (element.layout[name] || {}).tickvals;
      if (!axis || axis.type !== "log" || given) { return; } // a figure's own ticks (payload sizes) stay
      var low = Math.min(axis.range[0], axis.range[1]);
      var high = Math.max(axis.range[0], axis.range[1]);
      var steps = high - low > 3 ? [1] : [1, 2, 5];
      var values = [];
      for (var power = Math.floor(low); power <= Math.ceil(high); power++) {
        steps.forEach(function (step) {
          var value = step * Math.pow(10, power);
          var at = Math.log10(value);
          if (at >= low - 1e-9 && at <= high + 1e-9) { values.push(value); }
        });
      }
      update[name + ".tickmode"] = "array";
      update[name + ".tickvals"] = values;
      update[name + ".ticktext"] = values.map(compact);
    });
    return Object.keys(update).length ? Plotly.relayout(element, update) : Promise.resolve();
  }

  // A category label wider than its chart leaves (the Machines page's "machine · stack" rows on a phone)
  // is broken into lines: at each " · " and line break it has, then at spaces to LINE characters, and a
  // word longer than LINE after a hyphen (a machine's name: intel-xeon-emerald-rapids-2c-5a0de4 took half
  // a phone's chart and pushed the axis title off it). The chart grows where its rows no longer have the
  // height for their lines.
  var LINE = 24;
  var LINE_PX = 15;

  function pieces(word) {
    if (word.length <= LINE) { return [word]; }
    var out = [];
    var piece = "";
    word.split(/(?<=-)/).forEach(function (part) {
      if (piece && (piece + part).length > LINE) { out.push(piece); piece = part; }
      else { piece += part; }
    });
    out.push(piece);
    return out;
  }

  function lines(label) {
    var out = [];
    String(label).split(/<br>| · /).forEach(function (part) {
      var line = "";
      part.split(" ").forEach(function (word) {
        pieces(word).forEach(function (piece, index) {
          if (index) { out.push(line); line = piece; }
          else if (line && (line + " " + piece).length > LINE) { out.push(line); line = piece; }
          else { line = line ? line + " " + piece : piece; }
        });
      });
      out.push(line);
    });
    return out;
  }

  function outside(element, selector) {
    var svg = element.querySelector(".main-svg").getBoundingClientRect();
    return Array.prototype.some.call(element.querySelectorAll(selector), function (label) {
      var r = label.getBoundingClientRect();
      return r.width > 0 && (r.left < svg.left - 1 || r.right > svg.right + 1);
    });
  }

  function wrapLabels(element) {
    var update = {};
    var rows = 0;
    ["xaxis", "yaxis"].forEach(function (name) {
      var axis = element._fullLayout[name];
      var categories = axis && axis.type === "category" ? axis._categories || [] : [];
      if (!categories.length || !outside(element, "." + name.charAt(0) + "tick text")) { return; }
      var broken = categories.map(lines);
      update[name + ".tickmode"] = "array";
      update[name + ".tickvals"] = categories;
      update[name + ".ticktext"] = broken.map(function (l) { return l.join("<br>"); });
      if (name === "yaxis") {
        rows = categories.length * Math.max.apply(null, broken.map(function (l) { return l.length; }));
      }
    });
    var size = element._fullLayout._size;
    if (rows && rows * LINE_PX > size.h) {
      update.height = element._fullLayout.height + rows * LINE_PX - size.h;
    }
    return Object.keys(update).length ? Plotly.relayout(element, update) : Promise.resolve();
  }

  function box(element, selector) {
    var found = element.querySelectorAll(selector);
    if (!found.length) { return null; }
    var boxes = Array.prototype.map.call(found, function (node) { return node.getBoundingClientRect(); });
    return {
      top: Math.min.apply(null, boxes.map(function (b) { return b.top; })),
      bottom: Math.max.apply(null, boxes.map(function (b) { return b.bottom; })),
    };
  }

  // Text sizes are known only once drawn: move the legend below the x-axis labels where they came
  // out overlapping (many legend entries on a phone, rotated labels).
  function settle(element) {
    var update = {};
    var height = element._fullLayout.height;
    var legend = box(element, ".legend");
    var axis = box(element, ".xtick text, .g-xtitle");
    var below = element.layout.legend && element.layout.legend.yanchor === "top" && element.layout.legend.y < 0;
    if (legend && axis && below && legend.top < axis.bottom + 6) {
      var overlap = axis.bottom + 6 - legend.top;
      var plotHeight = element._fullLayout._size.h;
      update["legend.y"] = element.layout.legend.y - overlap / plotHeight;
      update.height = height + overlap;
      update["margin.b"] = element._fullLayout.margin.b + overlap;
    }
    return Object.keys(update).length ? Plotly.relayout(element, update) : Promise.resolve();
  }

  // A chart in a collapsed section (a closed <details>) is drawn when the section opens: in a hidden
  // container Plotly would take its default 700 px width, and the legend and label checks above would
  // measure nothing.
  function drawWhenShown(element) {
    var closed = element.closest("details:not([open])");
    if (!closed) { draw(element); return; }
    closed.addEventListener("toggle", function opened() {
      if (!closed.open) { return; }
      closed.removeEventListener("toggle", opened);
      drawWhenShown(element);
    });
  }

  // The captions of the charts shown go in before any of them is drawn: a caption put in between two
  // drawings made the browser lay the whole page out again before the next chart could be measured (on
  // the Machines page, 30 layouts of 25 ms: a tenth of its drawing).
  function drawAll() {
    var charts = Array.prototype.slice.call(document.querySelectorAll(".pcb-chart"));
    var shown = charts.filter(function (element) { return !element.closest("details:not([open])"); });
    var figures = shown.map(captioned);
    shown.forEach(function (element, index) { plot(element, figures[index]); });
    charts.filter(function (element) { return shown.indexOf(element) < 0; }).forEach(drawWhenShown);
  }

  function followPalette() {
    new MutationObserver(function () {
      document.querySelectorAll(".pcb-chart[data-rendered]").forEach(applyPalette);
    }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  function withPlotly(then) {
    if (window.Plotly) { then(); return; }
    var script = document.createElement("script");
    script.src = PLOTLY;
    script.onload = then;
    document.head.appendChild(script);
  }

  function start() {
    if (!document.querySelector(".pcb-chart")) { return; }
    withPlotly(function () { drawAll(); followPalette(); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
