/**
 * A small parser of the Prometheus text exposition format (version 0.0.4), for tests that read
 * /metrics: `# HELP` and `# TYPE` lines, and samples `name{label="value",…} value`, label values
 * unescaped (\\, \", \n). Anything else is an error, so a malformed exposition fails the test.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  help: Map<string, string>;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?[ \\t]+(\\S+)(?:[ \\t]+-?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/;

/** A sample value: a float, or NaN / +Inf / -Inf in any case (as Prometheus reads them; prom-client writes `Nan`). */
function parseValue(text: string, line: string): number {
  if (/^\+?inf$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${line}`);
  return value;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const match = LABEL.exec(rest);
    if (match === null) throw new Error(`malformed labels: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(match[0].length);
  }
  return labels;
}

export function parseExposition(text: string): Exposition {
  const exposition: Exposition = { types: new Map(), help: new Map(), samples: [] };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta !== null) {
      (meta[1] === 'TYPE' ? exposition.types : exposition.help).set(meta[2]!, meta[3]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (sample === null) throw new Error(`not a sample line: ${line}`);
    exposition.samples.push({
      name: sample[1]!,
      labels: parseLabels(sample[2] ?? '', line),
      value: parseValue(sample[3]!, line),
    });
  }
  return exposition;
}

/** The value of the one sample named `name` whose labels include `labels`; throws when there is not exactly one. */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length !== 1)
    throw new Error(`expected one sample ${name}${JSON.stringify(labels)}, found ${found.length}`);
  return found[0]!.value;
}
