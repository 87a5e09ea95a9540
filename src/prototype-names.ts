/**
 * Names that reach an object's prototype when assigned as a key (`obj[name] = v`): user-supplied field
 * names equal to one are refused wherever they become keys, never sent or silently lost.
 */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isPrototypeName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}
