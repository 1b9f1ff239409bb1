/**
 * What calls into libraries give: a call that cannot be followed may give a module, however its value reaches
 * a module's attribute (no total then, never one without it); the tuple helpers of timm, mmcv and torch give
 * their sizes (counts checked against PyTorch: partial_builds.py in pytorch-layers.json).
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, ROOT } from './helpers';

const PYTORCH = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-layers.json'), 'utf8')) as {
  modules: Record<string, { name: string; params: number | null }[]>;
};
const patchEmbed = PYTORCH.modules['test/fixtures/models/pytorch/partial_builds.py'].find(
  (m) => m.name === 'PatchEmbed',
)!.params;

async function totals(source: string): Promise<Record<string, string | undefined>> {
  const a = await analyzeText(source);
  return Object.fromEntries(a.modules.map((m) => [m.name, m.summary.params?.constant?.toString()]));
}

suite('values of library calls', () => {
  test('a module a library builds, kept in a variable, a list or another module, leaves the total not known', async () => {
    const found = await totals(`import torch.nn as nn
from transformers import AutoModel


class ByName(nn.Module):
    def __init__(self, name="bert-base-uncased"):
        super().__init__()
        m = AutoModel.from_pretrained(name)
        self.transformer = m
        self.proj = nn.Linear(768, 512)


class ByList(nn.Module):
    def __init__(self, name="bert-base-uncased"):
        super().__init__()
        parts = [AutoModel.from_pretrained(name)]
        self.transformer = parts[0]
        self.proj = nn.Linear(768, 512)


class Encoder(nn.Module):
    def __init__(self, name="bert-base-uncased"):
        super().__init__()
        self.transformer = AutoModel.from_pretrained(name)


class ByAttribute(nn.Module):
    def __init__(self):
        super().__init__()
        text = Encoder()
        self.transformer = text.transformer
        self.head = nn.Linear(512, 10)
`);
    assert.deepStrictEqual(found, {
      ByName: undefined,
      ByList: undefined,
      Encoder: undefined,
      ByAttribute: undefined,
    });
  });

  test('so do the items it unpacks to, its attributes, and what a function returning it on one path returns', async () => {
    // timm's xception: `self.global_pool, self.fc = create_classifier(...)` holds the classifier's 2,049,000
    // (PyTorch's Xception() has 22,855,952; 20,806,952 was printed without it). dinov2's evaluation wraps a
    // model its builder returns on one branch of a condition it cannot decide.
    const found = await totals(`import argparse
import torch.nn as nn
from timm.layers import create_classifier
import vits


class Unpacked(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.global_pool, self.fc = create_classifier(8, 1000)


class Wrap(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.head = nn.Linear(4, 4)


def build(args, only_teacher=False):
    if "vit" in args.arch:
        teacher = vits.__dict__[args.arch]()
        if only_teacher:
            return teacher, teacher.embed_dim
    return 1, 2, 3


class Built(nn.Module):
    def __init__(self):
        super().__init__()
        args = argparse.ArgumentParser().parse_args()
        model, _ = build(args, only_teacher=True)
        self.wrapped = Wrap(model)
        self.encoder = model.encoder
`);
    assert.deepStrictEqual(found, { Unpacked: undefined, Wrap: undefined, Built: undefined });
  });

  test('exec() may rebind the settings of the module running it: a model sized by them after it is not known', async () => {
    const a = await analyzeText(`import torch.nn as nn

dim = 48
exec(open("configurator.py").read())
model = nn.Linear(dim, dim)
fixed = nn.Linear(4, 4)
`);
    assert.deepStrictEqual(
      a.layers.map((l) => l.layer.params?.constant),
      [undefined, 20n],
    );
  });

  test("timm's, mmcv's and torch's tuple helpers give sizes, each as its library does with a string", async () => {
    const found = await totals(`import torch.nn as nn
from timm.layers import to_2tuple
from mmcv.utils import to_2tuple as mmcv_2tuple
from torch.nn.modules.utils import _pair


class Timm(nn.Module):
    def __init__(self, patch_size=16):
        super().__init__()
        patch_size = to_2tuple(patch_size)
        self.proj = nn.Conv2d(3, 768, kernel_size=patch_size, stride=patch_size)


class Torch(nn.Module):
    def __init__(self, patch_size=16):
        super().__init__()
        self.proj = nn.Conv2d(3, 768, kernel_size=_pair(patch_size), stride=_pair(patch_size))


class Padding(nn.Module):
    def __init__(self, padding="corner"):
        super().__init__()
        padding = mmcv_2tuple(padding)
        self.fc = nn.Linear(4, 4) if padding == "corner" else nn.Linear(8, 8)
`);
    assert.deepStrictEqual(found, { Timm: String(patchEmbed), Torch: String(patchEmbed), Padding: '20' });
  });
});
