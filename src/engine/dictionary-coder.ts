/**
 * Codes values by their index in `dictionary`, adding each value it does not hold yet at its
 * end, so the dictionary stays in order of first appearance: the dictionaries of per-customer
 * code columns (currencies, breakdown values), filled as customers are laid out or patched.
 */
export function dictionaryCoder<Value>(dictionary: Value[]): (value: Value) => number {
  const codeOf = new Map(dictionary.map((value, code) => [value, code]));
  return (value) => {
    let code = codeOf.get(value);
    if (code === undefined) {
      code = dictionary.length;
      dictionary.push(value);
      codeOf.set(value, code);
    }
    return code;
  };
}
