/**
 * robots.txt as RFC 9309 reads it: the group for our user agent (else `*`), its Allow and
 * Disallow rules matched by the longest pattern (`*` any run of characters, `$` the end), Allow
 * winning a tie; the Sitemap lines wherever they stand. Pure. A missing or unreadable robots.txt
 * allows everything (the RFC's rule for a 4xx answer).
 */

export const USER_AGENT = 'svc-docs';

export interface Robots {
  allowed(pathAndQuery: string): boolean;
  /** Sitemap URLs it names, as written. */
  sitemaps: string[];
}

interface Rule {
  allow: boolean;
  pattern: RegExp;
  length: number;
}

interface Group {
  agents: string[];
  rules: Rule[];
}

export const ALLOW_ALL: Robots = { allowed: () => true, sitemaps: [] };

export function parseRobots(text: string, agent = USER_AGENT): Robots {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | undefined;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'sitemap') sitemaps.push(value);
    else if (key === 'user-agent') {
      if (!lastWasAgent || current === undefined) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
    } else if ((key === 'allow' || key === 'disallow') && current !== undefined && value !== '')
      current.rules.push({ allow: key === 'allow', pattern: patternOf(value), length: value.length });
    lastWasAgent = key === 'user-agent';
  }
  const mine = groups.filter((g) => g.agents.some((a) => a !== '*' && agent.toLowerCase().includes(a)));
  const chosen = mine.length > 0 ? mine : groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  return { allowed: (path) => allowedBy(rules, path), sitemaps };
}

function allowedBy(rules: readonly Rule[], path: string): boolean {
  let best: Rule | undefined;
  for (const rule of rules) {
    if (!rule.pattern.test(path)) continue;
    if (best === undefined || rule.length > best.length || (rule.length === best.length && rule.allow)) best = rule;
  }
  return best?.allow ?? true;
}

function patternOf(value: string): RegExp {
  const anchored = value.endsWith('$');
  const body = (anchored ? value.slice(0, -1) : value)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}
