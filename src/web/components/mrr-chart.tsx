import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'preact/hooks';
import { money } from '../format.js';
import { MOVEMENTS, type MrrRow } from '../reports.js';
import { EChart } from './echart.js';

const COLOURS: Record<(typeof MOVEMENTS)[number], string> = {
  new: '#2f9e44',
  expansion: '#74b816',
  reactivation: '#1c7ed6',
  contraction: '#f59f00',
  churn: '#e03131',
};

// Past this many periods the chart gets a zoom slider, and the line is sampled to the pixels.
const ZOOM_FROM = 120;

/** The equally long range just before, drawn dashed over the MRR line, period by period. */
export interface PreviousPeriod {
  from: string;
  to: string;
  rows: MrrRow[];
}

export const PREVIOUS = 'Previous period';

function option(rows: MrrRow[], currency: string, previous?: PreviousPeriod): EChartsCoreOption {
  const dates = rows.map((row) => row.date);
  const axisMoney = (value: number) => money(value, currency);
  const zoom = rows.length > ZOOM_FROM;
  return {
    animation: rows.length < ZOOM_FROM,
    animationDuration: 300,
    tooltip: { trigger: 'axis', valueFormatter: (value: number) => money(value, currency) },
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    legend: {
      type: 'scroll',
      bottom: 0,
      data: [
        'MRR',
        ...(previous ? [PREVIOUS] : []),
        ...MOVEMENTS.map((kind) => kind[0]!.toUpperCase() + kind.slice(1)),
      ],
    },
    grid: [
      { left: 80, right: 16, top: 16, height: '42%' },
      { left: 80, right: 16, top: '58%', bottom: zoom ? 80 : 48 },
    ],
    xAxis: [
      { type: 'category', data: dates, gridIndex: 0, axisLabel: { show: false } },
      { type: 'category', data: dates, gridIndex: 1 },
    ],
    yAxis: [
      { type: 'value', gridIndex: 0, axisLabel: { formatter: axisMoney }, scale: true },
      { type: 'value', gridIndex: 1, axisLabel: { formatter: axisMoney } },
    ],
    dataZoom: zoom
      ? [
          { type: 'slider', xAxisIndex: [0, 1], bottom: 28 },
          { type: 'inside', xAxisIndex: [0, 1] },
        ]
      : [],
    series: [
      {
        name: 'MRR',
        type: 'line',
        data: rows.map((row) => row.total_mrr),
        xAxisIndex: 0,
        yAxisIndex: 0,
        showSymbol: rows.length <= 40,
        sampling: 'lttb',
        areaStyle: { opacity: 0.12 },
        lineStyle: { width: 2 },
        itemStyle: { color: '#3b5bdb' },
      },
      ...(previous
        ? [
            {
              name: PREVIOUS,
              type: 'line',
              // Matched from the end: the range before's last period under this one's last, as
              // the cards compare them. A range cut mid-period may hold one period more.
              data: rows.map(
                (_, index) => previous.rows[index + previous.rows.length - rows.length]?.total_mrr ?? null,
              ),
              xAxisIndex: 0,
              yAxisIndex: 0,
              showSymbol: false,
              sampling: 'lttb',
              lineStyle: { width: 2, type: 'dashed' },
              itemStyle: { color: '#868e96' },
              tooltip: {
                valueFormatter: (value: number) => money(value, currency),
              },
            },
          ]
        : []),
      ...MOVEMENTS.map((kind) => ({
        name: kind[0]!.toUpperCase() + kind.slice(1),
        type: 'bar',
        stack: 'movements',
        data: rows.map((row) => row[kind]),
        xAxisIndex: 1,
        yAxisIndex: 1,
        large: zoom,
        itemStyle: { color: COLOURS[kind] },
      })),
    ],
  };
}

/** MRR as a line over the period, and below it each period's movements as stacked bars. */
export function MrrChart({
  rows,
  currency,
  previous,
}: {
  rows: MrrRow[];
  currency: string;
  previous?: PreviousPeriod;
}) {
  const chart = useMemo(() => option(rows, currency, previous), [rows, currency, previous]);
  return <EChart option={chart} label="MRR over the period with its movements" />;
}
