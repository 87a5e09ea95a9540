/** Where each record of a JSON file starts, so a bad row can be annotated at its line. */

/**
 * Start offsets of the elements of the JSON array holding the records: the root array, or the array
 * under the root object's `key`. Runs on text JSON.parse already accepted, so it only tracks strings,
 * nesting and object keys.
 */
export function jsonElementOffsets(text: string, key: string | undefined): number[] {
  const offsets: number[] = [];
  const stack: { kind: '[' | '{'; key?: string; expectKey?: boolean; expectValue?: boolean }[] = [];
  let i = 0;
  const isTarget = (): boolean => {
    if (stack.length === 1) return stack[0].kind === '[' && key === undefined;
    return stack.length === 2 && stack[0].kind === '{' && stack[0].key === key && stack[1].kind === '[';
  };
  const valueStarts = (at: number): void => {
    const top = stack[stack.length - 1];
    if (top?.kind === '[' && top.expectValue) {
      top.expectValue = false;
      if (isTarget()) offsets.push(at);
    }
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.kind === '{' && top.expectKey) {
        top.key = JSON.parse(text.slice(start, i + 1)) as string;
        top.expectKey = false;
      } else valueStarts(start);
      i++;
      continue;
    }
    if (c === '[' || c === '{') {
      valueStarts(i);
      stack.push(c === '[' ? { kind: '[', expectValue: true } : { kind: '{', expectKey: true });
    } else if (c === ']' || c === '}') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === '[') top.expectValue = true;
      else if (top) top.expectKey = true;
    } else if (!/\s|:/.test(c)) {
      valueStarts(i);
    }
    i++;
  }
  return offsets;
}
