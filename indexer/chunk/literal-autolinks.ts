import type { Nodes, Root } from 'mdast';
import type { Data, Plugin } from 'unified';

/**
 * remark-gfm's literal-autolink transform (mdast-util-gfm-autolink-literal) walks the whole tree
 * four times, once per pattern, for every page: 8 % of the parse's CPU on Argo CD (`--cpu-prof`,
 * 7 December), though most pages' text has nothing it could link (their URLs are link targets or
 * code, which are not text nodes). Its four patterns each need `http://`, `https://` or `www.`
 * (any case) or an `@` inside one text node, so a tree where no text node has any of them is
 * left as it was, and the walks are skipped: one walk of ours instead, the tree the same.
 */

/** What every pattern of the transform needs inside a text node's value. */
const MAY_LINK = /@|https?:\/\/|www\./i;

/** The transform, found by its function's name: renamed in a later version, it simply runs unguarded. */
const TRANSFORM_NAME = 'transformGfmAutolinkLiterals';

// remark's own type for a transform: it may return nothing.
// biome-ignore lint/suspicious/noConfusingVoidType: the type mdast-util-from-markdown declares
type Transform = (tree: Root) => Root | null | undefined | void;

function hasLinkableText(node: Nodes): boolean {
  if (node.type === 'text') return MAY_LINK.test(node.value);
  if (!('children' in node)) return false;
  for (const child of node.children) if (hasLinkableText(child)) return true;
  return false;
}

function guarded(transform: Transform): Transform {
  return (tree) => (hasLinkableText(tree) ? transform(tree) : undefined);
}

type Extensions = NonNullable<Data['fromMarkdownExtensions']>;

function guardAll(extensions: Extensions): Extensions {
  return extensions.map((extension) => {
    if (Array.isArray(extension)) return guardAll(extension) as typeof extension;
    const transforms = extension.transforms?.map((t) => (t.name === TRANSFORM_NAME ? guarded(t) : t));
    return transforms === undefined ? extension : { ...extension, transforms };
  });
}

/** Use after remark-gfm: its literal-autolink transform then runs only on a tree it could change. */
export const guardLiteralAutolinks: Plugin<[], Root> = function () {
  const data = this.data();
  if (data.fromMarkdownExtensions !== undefined) data.fromMarkdownExtensions = guardAll(data.fromMarkdownExtensions);
};
