/**
 * The report page's own script and style, inlined next to the charting library's standalone build
 * (`lightweight-charts`, TradingView). Plain browser JavaScript in a string: it runs in the page,
 * not in Node, and must not depend on a bundler.
 *
 * What it does: reads the JSON blocks the report embeds; draws the price chart of one instrument
 * (a selector switches), a marker per fill with its text on hover; equity against the buy-and-hold
 * benchmark with drawdown in a pane below (one time axis: zoom with the wheel, pan by dragging,
 * crosshair); renders the trade list only when its section is opened, 200 rows at a time, and a
 * click on a trade shows it on the price chart. `window.tarangReport` tells a test what was drawn.
 */

export const PAGE_CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1180px;color:#1b1f24;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.sub{color:#57606a}table{border-collapse:collapse;margin:4px 0}td,th{padding:3px 10px;border-bottom:1px solid #e5e7eb;text-align:right;white-space:nowrap}
th{background:#f6f8fa;font-weight:600}td:first-child,th:first-child{text-align:left}td{font-variant-numeric:tabular-nums}
.pos{color:#1a7f37}.neg{color:#cf222e}.muted{color:#8c959f}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:8px 40px;align-items:start}.grid2>div{min-width:0;overflow-x:auto}.metrics{width:100%}.metrics td{white-space:normal}
.chart{position:relative;width:100%;border:1px solid #d0d7de;border-radius:6px}
#price-chart{height:440px}#equity-chart{height:460px}
.legend{display:flex;gap:16px;font-size:12px;color:#57606a;margin:6px 0}.legend i{display:inline-block;width:14px;height:3px;vertical-align:middle;margin-right:5px}
#tip{position:absolute;z-index:5;pointer-events:none;background:#fff;border:1px solid #d0d7de;border-radius:4px;padding:4px 8px;font-size:12px;white-space:pre;box-shadow:0 2px 6px rgba(0,0,0,.12)}
details>summary{cursor:pointer;font-size:17px;font-weight:600;margin:28px 0 8px}
#trades-table tbody tr{cursor:pointer}#trades-table tbody tr:hover{background:#f6f8fa}
.months td.pos,.months td.neg{min-width:56px}
pre{background:#f6f8fa;padding:10px;overflow:auto;font-size:12px}code{background:#f6f8fa;padding:1px 4px}
select{font:inherit;padding:2px 4px}
`;

export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var state = (window.tarangReport = { ready: false, instrument: '', markers: 0, fills: 0, tradesShown: 0, errors: [] });
  window.addEventListener('error', function (e) { state.errors.push(String(e.message)); });
  var LC = window.LightweightCharts;
  function $(id) { return document.getElementById(id); }
  function json(id) { return JSON.parse($(id).textContent); }
  function pad(n) { return String(n).padStart(2, '0'); }
  // Chart times carry the IST offset already: read them as UTC.
  function when(t) { var d = new Date(t * 1000); return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' + pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()); }
  function group(w) { return w.length <= 3 ? w : w.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',') + ',' + w.slice(-3); }
  function inr(v, decimals) { var s = Math.abs(v).toFixed(decimals).split('.'); return (v < 0 ? '-' : '') + '\u20b9' + group(s[0]) + (s[1] ? '.' + s[1] : ''); }
  function price(v) { var s = Math.abs(v).toFixed(2).split('.'); return (v < 0 ? '-' : '') + group(s[0]) + '.' + s[1]; }
  var data = json('chart-data');
  // Price formats are set per series: a chart-wide formatter would label the drawdown pane in rupees.
  function chart(el) {
    return LC.createChart(el, {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#1b1f24', fontSize: 11 },
      grid: { vertLines: { color: '#f0f2f4' }, horzLines: { color: '#f0f2f4' } },
      // minBarSpacing below a pixel lets "fit" show a whole year of minutes at once.
      timeScale: { timeVisible: data.intraday, secondsVisible: false, borderColor: '#d0d7de', minBarSpacing: 0.001 },
      rightPriceScale: { borderColor: '#d0d7de' },
      crosshair: { mode: LC.CrosshairMode.Normal },
      localization: { timeFormatter: when },
    });
  }

  // Price with fills.
  var priceChart = null, candles = null, markers = null, byTime = new Map();
  var select = $('instrument');
  function showInstrument(i) {
    var pc = data.price[i];
    candles.setData(pc.bars.map(function (b) { return { time: b[0], open: b[1], high: b[2], low: b[3], close: b[4] }; }));
    byTime = new Map();
    var list = pc.markers.map(function (m) {
      var at = byTime.get(m[0]);
      if (!at) byTime.set(m[0], (at = []));
      at.push(m[4]);
      return { time: m[0], position: m[1] ? 'belowBar' : 'aboveBar', shape: m[1] ? 'arrowUp' : 'arrowDown', color: m[1] ? '#0969da' : '#bf3989', size: 1 };
    });
    markers.setMarkers(list);
    priceChart.timeScale().fitContent();
    select.value = String(i);
    state.instrument = pc.instrument;
    state.markers = markers.markers().length;
    state.fills = pc.markers.length;
    $('price-note').textContent = pc.bars.length.toLocaleString('en-IN') + ' bars' + (pc.merged > 1 ? ' (' + pc.merged + ' ' + pc.interval + ' candles each)' : ' of ' + pc.interval) + ', ' + pc.markers.length.toLocaleString('en-IN') + ' fills marked (blue: buy, pink: sell; hover for details)';
  }
  if (data.price.length > 0) {
    priceChart = chart($('price-chart'));
    candles = priceChart.addSeries(LC.CandlestickSeries, { priceFormat: { type: 'custom', minMove: 0.01, formatter: price }, upColor: '#1a7f37', downColor: '#cf222e', borderVisible: false, wickUpColor: '#1a7f37', wickDownColor: '#cf222e' });
    markers = LC.createSeriesMarkers(candles, []);
    var tip = $('tip');
    priceChart.subscribeCrosshairMove(function (p) {
      var lines = p.time !== undefined && p.point ? byTime.get(p.time) : undefined;
      if (!lines) { tip.hidden = true; return; }
      tip.textContent = when(p.time) + '\n' + lines.join('\n');
      tip.style.left = Math.min(p.point.x + 16, $('price-chart').clientWidth - 260) + 'px';
      tip.style.top = p.point.y + 16 + 'px';
      tip.hidden = false;
    });
    data.price.forEach(function (pc, i) {
      var o = document.createElement('option');
      o.value = String(i);
      o.textContent = pc.instrument + ' (' + pc.markers.length + ' fills)';
      select.appendChild(o);
    });
    select.addEventListener('change', function () { showInstrument(Number(select.value)); });
    showInstrument(0);
  }

  // Equity against buy and hold, drawdown below on the same time axis.
  var eqChart = chart($('equity-chart'));
  var money = { type: 'custom', minMove: 0.01, formatter: function (v) { return inr(v, 0); } };
  var eq = eqChart.addSeries(LC.LineSeries, { color: '#0969da', lineWidth: 2, priceFormat: money, title: 'strategy' });
  var pts = data.equity.points;
  eq.setData(pts.map(function (p) { return { time: p[0], value: p[1] }; }));
  if (data.benchmark) {
    var bm = eqChart.addSeries(LC.LineSeries, { color: '#8c959f', lineWidth: 1, priceFormat: money, title: 'buy & hold' });
    bm.setData(pts.filter(function (p) { return p[2] !== null; }).map(function (p) { return { time: p[0], value: p[2] }; }));
  }
  var dd = eqChart.addSeries(LC.BaselineSeries, {
    baseValue: { type: 'price', price: 0 },
    topLineColor: 'rgba(0,0,0,0)', topFillColor1: 'rgba(0,0,0,0)', topFillColor2: 'rgba(0,0,0,0)',
    bottomLineColor: '#cf222e', bottomFillColor1: 'rgba(207,34,46,0.15)', bottomFillColor2: 'rgba(207,34,46,0.4)',
    lineWidth: 1, priceFormat: { type: 'custom', minMove: 0.01, formatter: function (v) { return v.toFixed(1) + '%'; } }, title: 'drawdown',
  }, 1);
  dd.setData(pts.map(function (p) { return { time: p[0], value: p[3] }; }));
  var panes = eqChart.panes();
  if (panes[1]) panes[1].setHeight(130);
  eqChart.timeScale().fitContent();

  // Trades: parsed and rendered only when the section is opened.
  var trades = $('trades'), rows = null, shown = 0;
  function more() {
    var body = $('trades-body'), frag = document.createDocumentFragment();
    rows.slice(shown, shown + 200).forEach(function (r) {
      var tr = document.createElement('tr');
      r.cells.forEach(function (c, k) {
        var td = document.createElement('td');
        td.textContent = c;
        if (k === r.pnlCell) td.className = c.charAt(0) === '-' ? 'neg' : 'pos';
        tr.appendChild(td);
      });
      tr.addEventListener('click', function () {
        if (!priceChart) return;
        showInstrument(r.chart);
        var span = Math.max(3600, r.exit - r.entry);
        priceChart.timeScale().setVisibleRange({ from: r.entry - span, to: r.exit + span });
        $('price-chart').scrollIntoView({ behavior: 'smooth', block: 'center' });
      });
      frag.appendChild(tr);
    });
    body.appendChild(frag);
    shown = Math.min(rows.length, shown + 200);
    state.tradesShown = shown;
    $('trades-more').hidden = shown >= rows.length;
    $('trades-shown').textContent = 'showing ' + shown.toLocaleString('en-IN') + ' of ' + rows.length.toLocaleString('en-IN') + (rows.length ? '; click a trade to see it on the price chart' : '');
  }
  trades.addEventListener('toggle', function () {
    if (trades.open && rows === null) { rows = json('trades-data'); more(); }
  });
  $('trades-more').addEventListener('click', more);
  state.ready = true;
})();
`;
