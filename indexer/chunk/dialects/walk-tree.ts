import type { Nodes, Parent, Root } from 'mdast';

/**
 * Every node of a parsed page, depth first, a parent before its children, in the order
 * unist-util-visit goes; `enter` returns 'skip' to leave a node's children out. The three walks of
 * the dialect cleaning (code ranges, HTML, link text) took 5-6 % of the parse's CPU through
 * unist-util-visit, most of it the closure it makes for every node (`--cpu-prof`, Argo CD, 8 December).
 */
export function walkTree(tree: Root, enter: (node: Nodes, parent: Parent | undefined) => 'skip' | undefined): void {
  walkFrom(tree, undefined, enter);
}

function walkFrom(
  node: Nodes,
  parent: Parent | undefined,
  enter: (node: Nodes, parent: Parent | undefined) => 'skip' | undefined,
): void {
  if (enter(node, parent) === 'skip' || !('children' in node)) return;
  for (const child of node.children) walkFrom(child, node, enter);
}
