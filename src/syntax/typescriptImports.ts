/** TypeScript imports, re-exports and export aliases, and the top-level names a file declares (with the catalog's names, the callees worth looking for). */
import type { ImportBinding, Stmt } from '../core/ir/source';
import { namedChildren, refOf, textOf, type Node } from './nodes';

export function importsOf(node: Node, source: string): ImportBinding[] {
  const sourceNode = node.childForFieldName('source');
  const fragment = sourceNode ? namedChildren(sourceNode).find((c) => c.type === 'string_fragment') : undefined;
  if (!fragment) return [];
  const module = textOf(fragment, source);
  const clause = namedChildren(node).find((c) => c.type === 'import_clause');
  const out: ImportBinding[] = [];
  for (const part of clause ? namedChildren(clause) : []) {
    if (part.type === 'identifier') out.push({ local: textOf(part, source), module });
    else if (part.type === 'namespace_import') {
      const id = namedChildren(part)[0];
      if (id) out.push({ local: textOf(id, source), module });
    } else if (part.type === 'named_imports') {
      for (const spec of namedChildren(part)) {
        const name = spec.childForFieldName('name');
        const alias = spec.childForFieldName('alias');
        if (name) out.push({ local: textOf(alias ?? name, source), module, member: textOf(name, source) });
      }
    }
  }
  return out;
}

/**
 * Re-exports, which the importing file reaches through this one: `export { Linear } from 'js-pytorch'`,
 * `export { Block as MLP } from './blocks'`, `export * as blocks from './blocks'` and `export * from './blocks'`
 * (bound as `*`: every name that module exports).
 */
export function reexportsOf(node: Node, source: string): ImportBinding[] {
  const sourceNode = node.childForFieldName('source');
  const fragment = sourceNode ? namedChildren(sourceNode).find((c) => c.type === 'string_fragment') : undefined;
  if (!fragment) return [];
  const module = textOf(fragment, source);
  const clause = namedChildren(node).find((c) => c.type === 'export_clause');
  if (clause) {
    return namedChildren(clause).flatMap((spec) => {
      const name = spec.childForFieldName('name');
      const alias = spec.childForFieldName('alias');
      return name ? [{ local: textOf(alias ?? name, source), module, member: textOf(name, source) }] : [];
    });
  }
  const namespace = namedChildren(node).find((c) => c.type === 'namespace_export');
  const id = namespace ? namedChildren(namespace).find((c) => c.type === 'identifier') : undefined;
  return [{ local: id ? textOf(id, source) : '*', module }];
}

/** `export { Block as MLP }`: the module binds the other name too (`MLP = Block`), for the files importing it. */
export function exportAliases(node: Node): Stmt[] {
  const clause = namedChildren(node).find((c) => c.type === 'export_clause');
  return (clause ? namedChildren(clause) : []).flatMap((spec): Stmt[] => {
    const name = spec.childForFieldName('name');
    const alias = spec.childForFieldName('alias');
    return name && alias ? [{ k: 'assign', targets: [refOf(alias)], value: refOf(name), at: spec.startIndex }] : [];
  });
}

export function typescriptDeclaredNames(statement: Node, source: string): string[] {
  const decl = statement.type === 'export_statement' ? statement.childForFieldName('declaration') : statement;
  if (decl?.type === 'class_declaration') {
    const name = decl.childForFieldName('name');
    return name ? [textOf(name, source)] : [];
  }
  if (statement.type === 'import_statement') return importsOf(statement, source).map((imp) => imp.local);
  if (statement.type === 'export_statement')
    return reexportsOf(statement, source).flatMap((imp) => (imp.local !== '*' ? [imp.local] : []));
  return [];
}
