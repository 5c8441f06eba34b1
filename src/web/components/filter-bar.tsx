import { useState } from 'preact/hooks';
import { api } from '../api.js';
import {
  BILLING_FREQS,
  CURRENCIES,
  type DashboardQuery,
  dashboardParams,
  INTERVALS,
  type Period,
  PERIODS,
  periodRange,
  REGIONS,
} from '../dashboard-query.js';
import { navigate } from '../route.js';
import { useLoad } from '../use-load.js';

interface Named {
  id: string;
  name: string;
}

export interface FilterOptions {
  planGroups: Named[];
  segments: Named[];
  dataSources: (Named & { type: string })[];
}

let options: Promise<FilterOptions> | undefined;

/**
 * What the pickers offer: the account's plan groups, saved segments and data sources, read
 * once per visit. A list that cannot be read is empty: the filter still takes an id from the URL.
 */
function loadOptions(): Promise<FilterOptions> {
  const list = <T,>(read: Promise<T[]>) => read.catch(() => [] as T[]);
  options ??= Promise.all([
    list(
      api.get<{ result: { list: Named[] } }>('/data/plan-groups', { limit: 1000 }).then((r) => r.result.list),
    ),
    list(
      api.get<{ result: { list: Named[] } }>('/data/segments', { limit: 1000 }).then((r) => r.result.list),
    ),
    list(api.get<{ result: (Named & { type: string })[] }>('/data/data-sources').then((r) => r.result)),
  ]).then(([planGroups, segments, dataSources]) => ({ planGroups, segments, dataSources }));
  return options;
}

/** Forgets the pickers' lists, after a settings page changed them. */
export function forgetFilterOptions(): void {
  options = undefined;
}

const BILLING_LABELS = {
  day: 'Daily',
  week: 'Weekly',
  month: 'Monthly',
  quarter: 'Quarterly',
  year: 'Yearly',
} as const;

/** At phone width the customer filters start folded, unless one is set. */
const narrow = () => window.matchMedia('(max-width: 600px)').matches;

const label = (value: string) => value[0]!.toUpperCase() + value.slice(1).replaceAll('_', ' ');

/** A select of `choices` that also shows a value of the URL that is not among them (a bookmark's). */
function Choice(props: {
  name: string;
  label: string;
  value: string | undefined;
  choices: readonly (readonly [string, string])[];
  onChange: (value: string | undefined) => void;
  any?: string;
}) {
  const known = props.choices.some(([value]) => value === props.value);
  return (
    <label>
      {props.label}
      <select
        name={props.name}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.currentTarget.value || undefined)}
      >
        <option value="">{props.any ?? 'All'}</option>
        {props.value && !known && <option value={props.value}>{props.value}</option>}
        {props.choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A custom variable's filter: its key, then one of its values (the API lists them). */
function CustomFilter({ onAdd }: { onAdd: (key: string, value: string) => void }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const clean = key.trim();
  const [values] = useLoad(
    () =>
      /^[\w.-]{1,100}$/.test(clean)
        ? api
            .get<{ values: { value: string; count: number }[] }>('/reports/custom-variables', {
              key: clean,
              limit: 100,
            })
            .then((answer) => answer.values)
        : Promise.resolve([]),
    clean,
  );
  const add = () => {
    if (/^[\w.-]{1,100}$/.test(clean) && value.trim()) {
      onAdd(clean, value.trim());
      setValue('');
    }
  };
  return (
    <>
      <label>
        Custom variable
        <input
          name="custom-key"
          placeholder="e.g. industry"
          value={key}
          size={12}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
      </label>
      <label>
        Value
        <input
          name="custom-value"
          list="custom-values"
          value={value}
          size={12}
          onInput={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), add())}
        />
      </label>
      {/* Outside the label: inside, the options' text would become part of the field's name. */}
      <datalist id="custom-values">
        {values.state === 'done' &&
          values.value.map((item) => (
            <option key={item.value} value={item.value}>
              {`${item.value} (${item.count})`}
            </option>
          ))}
      </datalist>
      <button type="button" class="secondary" onClick={add} disabled={!clean || !value.trim()}>
        Add
      </button>
    </>
  );
}

/**
 * Period, interval, currency and the report filters of a report page, kept in the URL: a
 * change navigates, so the view can be bookmarked and shared and the back button undoes it.
 * `extra` are the page's own parameters, kept as they are, except the page number, which
 * starts again. A page as of today keeps the period in the URL for the next page but offers
 * no period; `noInterval` hides the interval of a page whose figures have no periods.
 */
export function FilterBar(props: {
  path: string;
  query: DashboardQuery;
  today: Date;
  extra?: Record<string, string | undefined>;
  /** The page's figures are as of today: no period or interval to pick. */
  asOfToday?: boolean;
  /** The page's figures are over the whole range, not by period. */
  noInterval?: boolean;
}) {
  const { query, today } = props;
  const [lists] = useLoad(loadOptions, 'filter-options');
  const known = lists.state === 'done' ? lists.value : { planGroups: [], segments: [], dataSources: [] };
  const change = (next: Partial<DashboardQuery>) =>
    navigate(props.path, { ...props.extra, ...dashboardParams({ ...query, ...next }), page: undefined });
  const filter = (name: string, value: string | undefined) => {
    const filters = { ...query.filters };
    if (value) filters[name] = value;
    else delete filters[name];
    change({ filters });
  };
  const range = periodRange(query, today);
  const custom = Object.entries(query.filters).filter(([name]) => name.startsWith('custom_'));
  const any = Object.keys(query.filters).length > 0;
  return (
    <form
      class="filters-bar"
      aria-label="Filters"
      onSubmit={(event) => {
        // Enter in the region field applies it, as leaving the field does.
        event.preventDefault();
        const region = event.currentTarget.querySelector<HTMLInputElement>('input[name="region"]');
        const value = region?.value.trim() || undefined;
        if (region && value !== query.filters.region) filter('region', value);
      }}
    >
      <div class="filters">
        {!props.asOfToday && (
          <>
            <label>
              Period
              <select
                name="period"
                value={query.period}
                onChange={(event) => {
                  const period = event.currentTarget.value as Period;
                  change(
                    period === 'custom' ? { period, ...range } : { period, from: undefined, to: undefined },
                  );
                }}
              >
                {Object.entries(PERIODS).map(([value, text]) => (
                  <option key={value} value={value}>
                    {text}
                  </option>
                ))}
              </select>
            </label>
            {query.period === 'custom' && (
              <>
                <label>
                  From
                  <input
                    type="date"
                    name="from"
                    value={range.from}
                    max={range.to}
                    onChange={(e) => e.currentTarget.value && change({ from: e.currentTarget.value })}
                  />
                </label>
                <label>
                  To
                  <input
                    type="date"
                    name="to"
                    value={range.to}
                    min={range.from}
                    onChange={(e) => e.currentTarget.value && change({ to: e.currentTarget.value })}
                  />
                </label>
              </>
            )}
            {!props.noInterval && (
              <label>
                Interval
                <select
                  name="interval"
                  value={query.interval}
                  onChange={(e) => change({ interval: e.currentTarget.value as DashboardQuery['interval'] })}
                >
                  {INTERVALS.map((interval) => (
                    <option key={interval} value={interval}>
                      {label(interval)}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </>
        )}
        <Choice
          name="currency"
          label="Shown in"
          any="Account default"
          value={query.currency}
          choices={CURRENCIES.map((currency) => [currency, currency.toUpperCase()] as const)}
          onChange={(currency) => change({ currency })}
        />
      </div>
      <details class="customer-filters" open={any || !narrow()}>
        <summary>
          Filter customers
          {any && ` (${Object.keys(query.filters).length})`}
        </summary>
        <div class="filters" role="group" aria-label="Customers">
          <label>
            Region or countries
            <input
              name="region"
              list="regions"
              placeholder="eu, or US CA"
              size={12}
              value={query.filters.region ?? ''}
              onChange={(e) => filter('region', e.currentTarget.value.trim() || undefined)}
            />
            <datalist id="regions">
              {REGIONS.map((region) => (
                <option key={region} value={region}>
                  {label(region)}
                </option>
              ))}
            </datalist>
          </label>
          <Choice
            name="customer_currency"
            label="Customer currency"
            value={query.filters.customer_currency}
            choices={CURRENCIES.map((currency) => [currency, currency.toUpperCase()] as const)}
            onChange={(value) => filter('customer_currency', value)}
          />
          <Choice
            name="plan"
            label="Plan group"
            value={query.filters.plan}
            choices={known.planGroups.map((group) => [group.id, group.name] as const)}
            onChange={(value) => filter('plan', value)}
          />
          <Choice
            name="billing_freq"
            label="Billing"
            value={query.filters.billing_freq}
            choices={BILLING_FREQS.map((freq) => [freq, BILLING_LABELS[freq]] as const)}
            onChange={(value) => filter('billing_freq', value)}
          />
          <Choice
            name="segment"
            label="Segment"
            value={query.filters.segment}
            choices={known.segments.map((segment) => [segment.id, segment.name] as const)}
            onChange={(value) => filter('segment', value)}
          />
          <Choice
            name="data_source"
            label="Data source"
            value={query.filters.data_source}
            choices={known.dataSources.map((source) => [source.id, source.name] as const)}
            onChange={(value) => filter('data_source', value)}
          />
          <CustomFilter onAdd={(key, value) => filter(`custom_${key}`, value)} />
          {any && (
            <button type="button" class="secondary" onClick={() => change({ filters: {} })}>
              Clear filters
            </button>
          )}
        </div>
      </details>
      {custom.length > 0 && (
        <p class="chips">
          {custom.map(([name, value]) => (
            <span class="chip" key={name} data-filter={name}>
              {name.slice('custom_'.length)} = {value.split('~~').join(' or ')}
              <button
                type="button"
                class="secondary"
                aria-label={`Remove ${name}`}
                onClick={() => filter(name, undefined)}
              >
                ×
              </button>
            </span>
          ))}
        </p>
      )}
    </form>
  );
}
