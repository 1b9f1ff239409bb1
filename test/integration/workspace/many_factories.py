"""Forty factories, each building M after some 10,000 steps of work: more than an editor's first analysis
gives factories, far less than the full one that follows it."""
import torch.nn as nn


class M(nn.Module):
    def __init__(self, d=1):
        super().__init__()
        n = 0
        for i in range(30):
            for j in range(100):
                n += 1
        self.fc = nn.Linear(d, n)


def f0():
    return M(2)


def f1():
    return M(3)


def f2():
    return M(4)


def f3():
    return M(5)


def f4():
    return M(6)


def f5():
    return M(7)


def f6():
    return M(8)


def f7():
    return M(9)


def f8():
    return M(10)


def f9():
    return M(11)


def f10():
    return M(12)


def f11():
    return M(13)


def f12():
    return M(14)


def f13():
    return M(15)


def f14():
    return M(16)


def f15():
    return M(17)


def f16():
    return M(18)


def f17():
    return M(19)


def f18():
    return M(20)


def f19():
    return M(21)


def f20():
    return M(22)


def f21():
    return M(23)


def f22():
    return M(24)


def f23():
    return M(25)


def f24():
    return M(26)


def f25():
    return M(27)


def f26():
    return M(28)


def f27():
    return M(29)


def f28():
    return M(30)


def f29():
    return M(31)


def f30():
    return M(32)


def f31():
    return M(33)


def f32():
    return M(34)


def f33():
    return M(35)


def f34():
    return M(36)


def f35():
    return M(37)


def f36():
    return M(38)


def f37():
    return M(39)


def f38():
    return M(40)


def f39():
    return M(41)
