/** A benchmark script's `--<name>=<value>` argument, as written; undefined when absent. */
export function flagValue(name: string, argv: readonly string[] = process.argv): string | undefined {
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
