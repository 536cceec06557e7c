import { generate, parse, walk, type CssNode, type List, type ListItem } from 'css-tree';

/** At-rules a theme may use: conditions and animations, nothing that loads or imports. */
const AT_RULES = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes', 'container', 'layer']);
/** Functions that fetch or embed something (and IE's script in CSS). */
const FETCHING = /^(url|image|image-set|-webkit-image-set|cross-fade|element|expression|src)$/i;
/** Properties that ran code in old engines. */
const SCRIPTED = /^(behavior|-moz-binding)$/i;

function fetches(node: CssNode): boolean {
  let found = false;
  walk(node, (n) => {
    if (n.type === 'Url' || n.type === 'Raw' || (n.type === 'Function' && FETCHING.test(n.name)))
      found = true;
  });
  return found;
}

/**
 * A program's customCss as the hosted page may use it (docs/api.md, "The hosted verification page"): rules,
 * media and support conditions, keyframes; no @import, @font-face or @namespace, no url() or other
 * function that loads a resource, no scripted property, and nothing css-tree could not parse (it is dropped,
 * not passed on). The page's CSP allows styles from Eligo only, so this keeps a theme from loading or
 * tracking anything as well.
 */
export function sanitizeCustomCss(css: string): string {
  if (css.trim() === '') return '';
  const ast = parse(css, { parseValue: true, parseRulePrelude: true, onParseError: () => undefined });
  walk(ast, {
    enter(node: CssNode, item: ListItem<CssNode>, list: List<CssNode>) {
      if (!list || !item) return;
      const drop =
        (node.type === 'Atrule' && !AT_RULES.has(node.name.toLowerCase())) ||
        node.type === 'Raw' ||
        (node.type === 'Rule' && node.prelude.type === 'Raw') ||
        (node.type === 'Declaration' && (SCRIPTED.test(node.property) || fetches(node.value)));
      if (drop) list.remove(item);
    },
  });
  return generate(ast);
}
