/**
 * Small crafted files that made the first evaluator hang, abort or print a wrong number. Each must end
 * fast as "unknown" (or with the exact count where one exists): the unit test checks what they print,
 * `npm run bench` how long they take.
 */
export interface Pathological {
  readonly name: string;
  readonly source: string;
  /** What the file's layer and model counts must be: undefined where no number may be printed. */
  readonly counts?: readonly (string | undefined)[];
}

const torch = 'import torch\nimport torch.nn as nn\n';

export const PATHOLOGICAL: readonly Pathological[] = [
  {
    name: 'exponential recursive tree of modules',
    source: `${torch}class Node(nn.Module):\n    def __init__(self, depth=40):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n        if depth > 0:\n            self.left = Node(depth - 1)\n            self.right = Node(depth - 1)\n`,
  },
  {
    name: 'recursion without a base case',
    source: `${torch}class Loop(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n        self.again = Loop()\n`,
  },
  {
    // Deeper than CPython's tokenizer reads (200 brackets): not followed, whatever stack the machine has left,
    // so two analyses agree; the layer after it keeps its count.
    name: 'a layer inside 1,000 nested nn.Sequential(',
    source: `${torch}m = ${'nn.Sequential('.repeat(1000)}nn.Linear(2, 2)${')'.repeat(1000)}\nfc = nn.Linear(3, 3)\n`,
    counts: ['12'],
  },
  {
    name: 'a layer inside 90 nested nn.Sequential(',
    source: `${torch}m = ${'nn.Sequential('.repeat(90)}nn.Linear(2, 2)${')'.repeat(90)}\nfc = nn.Linear(3, 3)\n`,
    counts: ['6', '12'],
  },
  {
    name: 'a list of a billion items',
    source: `${torch}sizes = [0] * 10**9\nfc = nn.Linear(len(sizes), 4)\n`,
  },
  {
    name: 'an empty list repeated a billion times',
    source: `${torch}sizes = [] * 10**9\nfc = nn.Linear(len(sizes) + 4, 4)\n`,
    counts: ['20'],
  },
  {
    name: 'a string doubled forty times, then split, upper-cased and used as a key',
    source: `${torch}s = "ab"\nfor _ in range(40):\n    s = s + s\nt = f"{s}{s}"\nu = s.upper().split()\nd = {s: 1}\nfc = nn.Linear(len(u), 4)\n`,
  },
  {
    name: 'a chain of 1,000 classes, each calling the constructor of its base',
    source: `${torch}class C0(nn.Module):\n    def __init__(self, d=4):\n        super().__init__()\n        self.l = nn.Linear(d, d)\n${Array.from({ length: 999 }, (_, i) => `class C${i + 1}(C${i}):\n    def __init__(self, d=4):\n        super().__init__(d)\n`).join('')}`,
    counts: ['20'],
  },
  {
    name: 'nested comprehensions over large ranges',
    source: `${torch}grid = [[[x * y * z for x in range(1000)] for y in range(1000)] for z in range(1000)]\nfc = nn.Linear(len(grid), 4)\n`,
  },
  {
    name: 'exponential recursion of a function',
    source: `${torch}def f(n):\n    return 1 if n == 0 else f(n - 1) + f(n - 1)\nfc = nn.Linear(f(60), 4)\n`,
  },
  {
    name: 'a polynomial raised to the 64th power',
    source: `${torch}def block(a, b, c, d, e, f, g, h):\n    return nn.Linear((a + b + c + d + e + f + g + h) ** 64, 4)\n`,
  },
  {
    name: 'a tower of powers',
    source: `${torch}n = 10 ** 10 ** 10\nfc = nn.Linear(n, 4)\n`,
  },
  {
    name: 'repeated squaring in a loop',
    source: `${torch}x = 3\nfor _ in range(200):\n    x = x * x\nfc = nn.Linear(x, 4)\n`,
  },
  {
    name: 'a loop that never ends',
    source: `${torch}n = 1\nwhile True:\n    n = n + 1\nfc = nn.Linear(n, 4)\n`,
  },
  {
    name: 'a huge integer literal',
    source: `${torch}fc = nn.Linear(${'9'.repeat(20000)}, 4)\n`,
  },
  {
    name: 'deeply nested parentheses',
    source: `${torch}fc = nn.Linear(${'('.repeat(3000)}4${')'.repeat(3000)}, 4)\n`,
  },
  {
    name: 'a class that is its own base',
    source: `${torch}class A(A):\n    pass\nclass B(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = A()\n        self.fc = nn.Linear(2, 2)\n`,
  },
  {
    name: 'mutually recursive classes',
    source: `${torch}class P(nn.Module):\n    def __init__(self, n=5):\n        super().__init__()\n        self.fc = nn.Linear(n, n)\n        self.q = Q(n)\nclass Q(nn.Module):\n    def __init__(self, n=5):\n        super().__init__()\n        self.p = P(n)\n`,
  },
  {
    name: 'heads that do not divide a huge prime embedding',
    source: `${torch}attn = nn.MultiheadAttention(1000000000039, 7)\n`,
    // The tensors' count, exact (4·E² + 4·E); the layer is reported as one PyTorch rejects.
    counts: ['4,000,000,000,316,000,000,006,240'],
  },
  {
    name: 'a module that holds itself, and dicts that hold themselves',
    source: `${torch}class A(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n        self.me = self\n        self.layers = nn.ModuleList([self.fc, self.fc])\n        d = {}\n        d["self"] = d\n        e = {}\n        e["self"] = e\n        self.x = d if d == e else e\n`,
    // PyTorch: `parameters()` yields each tensor once, however the module is reached.
    counts: ['20'],
  },
  {
    name: 'a long arithmetic chain',
    source: `${torch}d = 1${' + 1'.repeat(1000)}\nfc = nn.Linear(d, 2)\n`,
    counts: ['2,004'],
  },
  {
    name: 'an arithmetic chain deeper than the stack',
    source: `${torch}d = 1${' + 1'.repeat(50000)}\nfc = nn.Linear(d, 2)\n`,
  },
];
