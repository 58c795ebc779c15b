// The hot list filters as a plain GET form: every filter ends up in the URL (shareable), and it
// works without JavaScript. The page drops the empty fields the form submits.
import { CLASSIFICATIONS } from '@/lib/verdicts/verdict';

export interface FilterOptions {
  jobs: string[];
  releases: string[];
  platforms: string[];
  owners: string[];
}

export default function HotlistFilters({ params, options }: { params: Record<string, string | undefined>; options: FilterOptions }) {
  const p = params;
  const noBug = p.noBug === 'true' || p.noBug === '1';
  return (
    <form method="get" action="/" className="filters" aria-label="Filters">
      {p.window && <input type="hidden" name="window" value={p.window} />}
      {p.at && <input type="hidden" name="at" value={p.at} />}
      {p.limit && <input type="hidden" name="limit" value={p.limit} />}
      <label>
        Job (regex)
        <input type="text" name="job" list="filter-jobs" defaultValue={p.job ?? ''} spellCheck={false} autoComplete="off" />
        <datalist id="filter-jobs">
          {options.jobs.map((j) => (
            <option key={j} value={j} />
          ))}
        </datalist>
      </label>
      <ChoiceFilter label="Release" name="release" value={p.release} choices={options.releases} />
      <ChoiceFilter label="Platform" name="platform" value={p.platform} choices={options.platforms} />
      <label>
        Upgrade
        <select name="upgrade" defaultValue={p.upgrade ?? ''}>
          <option value="">any</option>
          <option value="true">upgrade jobs</option>
          <option value="false">no upgrade</option>
        </select>
      </label>
      <label>
        Owner
        <input type="text" name="owner" list="filter-owners" defaultValue={p.owner ?? ''} spellCheck={false} autoComplete="off" />
        <datalist id="filter-owners">
          {options.owners.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      </label>
      <label>
        Verdict
        <select name="classification" defaultValue={p.classification ?? ''}>
          <option value="">any</option>
          {CLASSIFICATIONS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label>
        Test name (regex)
        <input type="text" name="test" defaultValue={p.test ?? ''} spellCheck={false} autoComplete="off" />
      </label>
      <label>
        Sort by
        <select name="sort" defaultValue={p.sort ?? ''}>
          <option value="">failures in the window</option>
          <option value="severity">flake severity (how long and how much)</option>
        </select>
      </label>
      <label className="check">
        <input type="checkbox" name="noBug" value="true" defaultChecked={noBug} /> No bug yet
      </label>
      <button type="submit" className="primary">
        Apply
      </button>
      <a className="button" href={p.window || p.at ? `/?${new URLSearchParams(Object.entries({ window: p.window ?? '', at: p.at ?? '' }).filter(([, v]) => v)).toString()}` : '/'}>
        Clear
      </a>
    </form>
  );
}

/** A select with "any" first and one option per choice. */
function ChoiceFilter({ label, name, value, choices }: { label: string; name: string; value: string | undefined; choices: string[] }) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={value ?? ''}>
        <option value="">any</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}
