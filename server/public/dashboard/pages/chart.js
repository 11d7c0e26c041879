// @ts-check
// The home page's chart: uPlot's browser build (node_modules/uplot, served at /dashboard/vendor by
// the gateway, loaded on first use). Bars of successful and declined charges per day, and the gross
// volume as a line on its own axis.

import { money } from '../format.js';

/** @typedef {typeof import('uplot')} UPlot */
/** @typedef {import('./home.js').Day} Day */

/** @type {Promise<UPlot> | null} */
let loading = null;

/** @returns {Promise<UPlot>} */
function loadUPlot() {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/dashboard/vendor/uPlot.iife.min.js';
    script.onload = () => resolve(/** @type {any} */ (window).uPlot);
    script.onerror = () => {
      loading = null; // the next drawing tries again
      script.remove();
      reject(new Error('the chart library did not load'));
    };
    document.head.append(script);
  });
  return loading;
}

/** @param {string} name a custom property of palette.css */
const colour = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#555';

/**
 * Draws `series` into `box` (which must be on the page); redraws at the box's width when it changes.
 * @param {HTMLElement} box
 * @param {Day[]} series
 */
export async function drawChart(box, series) {
  const uPlot = await loadUPlot();
  // The page is drawn off-screen and then shown: wait (a few frames at most) until the box is laid out.
  for (let i = 0; !box.isConnected && i < 30; i++) await new Promise(requestAnimationFrame);
  if (!box.isConnected) return; // the merchant went elsewhere
  const x = series.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
  // Successful left of the day's tick, declined right of it.
  const bars = uPlot.paths.bars({ size: [0.4, 24], align: -1 });
  const width = () => Math.max(240, box.clientWidth);
  const plot = new uPlot({
    width: width(),
    height: 260,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    cursor: { drag: { x: false, y: false } },
    legend: { live: false },
    // Half a day either side, so the first and last days' bars are whole.
    scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, count: { range: (_u, _min, max) => [0, Math.max(4, max)] }, money: { range: (_u, _min, max) => [0, Math.max(100, max)] } },
    axes: [
      { stroke: colour('--muted') },
      { scale: 'count', stroke: colour('--muted'), label: 'charges', size: 48, grid: { stroke: colour('--border') } },
      { scale: 'money', side: 1, stroke: colour('--muted'), label: 'gross volume', size: 70, grid: { show: false },
        values: (_u, ticks) => ticks.map((t) => money(t).replace(/\.00$/, '')) },
    ],
    series: [
      {},
      { label: 'Successful', scale: 'count', fill: colour('--ok'), stroke: colour('--ok'), paths: bars, points: { show: false } },
      { label: 'Declined', scale: 'count', fill: colour('--error'), stroke: colour('--error'), paths: uPlot.paths.bars({ size: [0.4, 24], align: 1 }), points: { show: false } },
      { label: 'Gross volume', scale: 'money', stroke: colour('--accent'), width: 2 },
    ],
  }, [x, series.map((d) => d.successful), series.map((d) => d.declined), series.map((d) => d.gross_volume)], box);
  const resize = new ResizeObserver(() => {
    if (!box.isConnected) return resize.disconnect();
    if (Math.abs(width() - plot.width) > 8) plot.setSize({ width: width(), height: 260 });
  });
  resize.observe(box);
}
