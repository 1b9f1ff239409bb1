/** The names a Python import statement binds: `import torch.nn as nn`, `from torch import nn`, `import torch.nn`. */
import type { ImportBinding } from '../core/ir/source';
import { fieldOf, fieldsOf, synText, type Syn } from './syn';

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
