/**
 * The names under which citations are stored for Open WebUI (`metadata.name`): their titles,
 * a repeated one numbered ("rapport.pdf (2)"). Up to 0.7 Open WebUI numbers its inline buttons
 * by position in the list of its sources' distinct names: two sources of one name would shift
 * every later marker onto the next source, and the last markers onto none.
 */

export function distinctNames(citations: ReadonlyArray<{ title: string }>): string[] {
  const titles = new Set(citations.map((c) => c.title));
  const used = new Set<string>();
  const next = new Map<string, number>(); // per title: the number to try next, so 1,000 equal titles stay linear
  return citations.map(({ title }) => {
    let name = title;
    let n = next.get(title) ?? 2;
    while (used.has(name) || (name !== title && titles.has(name))) name = `${title} (${n++})`;
    next.set(title, n);
    used.add(name);
    return name;
  });
}
