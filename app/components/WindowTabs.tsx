// Window tabs as links: the window is part of the URL, so every view can be shared.
import { hrefWith, WINDOW_NAMES } from './format';

export default function WindowTabs({ path, current, params }: { path: string; current: string; params: Record<string, string | undefined> }) {
  return (
    <nav aria-label="Time window">
      <ul className="tabs">
        {WINDOW_NAMES.map((w) => (
          <li key={w}>
            <a href={hrefWith(path, { ...params, window: w === '7d' ? undefined : w })} aria-current={w === current ? 'page' : undefined}>
              {w}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
