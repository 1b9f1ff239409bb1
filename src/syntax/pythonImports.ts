/** The names a Python import statement binds: `import torch.nn as nn`, `from torch import nn`, `import torch.nn`. */
import type { ImportBinding } from '../core/ir/source';
import { fieldOf, fieldsOf, synText, type Syn } from './syn';
import { findDescendants, textOf, type Node } from './nodes';

export function importsOf(node: Syn, source: string): ImportBinding[] {
  const out: ImportBinding[] = [];
  if (node.type === 'import_statement') {
    for (const child of fieldsOf(node, 'name')) {
      if (child.type === 'aliased_import') {
        const name = fieldOf(child, 'name');
        const alias = fieldOf(child, 'alias');
        if (name && alias) out.push({ local: synText(alias, source), module: synText(name, source) });
      } else {
        // `import torch.nn` binds `torch`; attribute access then walks into the submodule.
        const dotted = synText(child, source);
        const head = dotted.split('.')[0];
        out.push({ local: head, module: head });
      }
    }
    return out;
  }
  const moduleNode = fieldOf(node, 'module_name');
  if (!moduleNode) return out;
  const module = synText(moduleNode, source);
  // `from .layers import *`: every public name of the module, looked up there when asked (interp/names.ts).
  if (node.children.some((c) => c.type === 'wildcard_import')) return [{ local: '*', module }];
  for (const child of fieldsOf(node, 'name')) {
    if (child.type === 'aliased_import') {
      const name = fieldOf(child, 'name');
      const alias = fieldOf(child, 'alias');
      if (name && alias) out.push({ local: synText(alias, source), module, member: synText(name, source) });
    } else {
      const member = synText(child, source);
      out.push({ local: member, module, member });
    }
  }
  return out;
}

const IMPORT_STATEMENTS: ReadonlySet<string> = new Set(['import_statement', 'import_from_statement']);
/** Where no import statement is: read without descending (a file's expressions are most of its nodes). */
const NO_IMPORTS: ReadonlySet<string> = new Set(['expression_statement', 'return_statement', 'decorator']);

/**
 * The modules a parsed Python file's import statements name, anywhere in it: `pkg.sub` for `import pkg.sub`,
 * `.modeling` and `.modeling.Sam` for `from .modeling import Sam` (the member may be a module). Read from the
 * tree itself, without the file's model: what a search for the files importing another needs of each file.
 */
export function importedModules(root: Node, source: string): string[] {
  const out = new Set<string>();
  const nameOf = (n: Node) => textOf(n.type === 'aliased_import' ? (n.childForFieldName('name') ?? n) : n, source);
  findDescendants(root, IMPORT_STATEMENTS, NO_IMPORTS, (node) => {
    const names = node.childrenForFieldName('name').filter((n): n is Node => n !== null);
    if (node.type === 'import_statement') {
      for (const n of names) out.add(nameOf(n));
      return;
    }
    const module = node.childForFieldName('module_name');
    if (!module) return;
    const from = textOf(module, source);
    out.add(from);
    for (const n of names) out.add(`${from.replace(/\.$/, '')}.${nameOf(n)}`);
  });
  return [...out];
}
