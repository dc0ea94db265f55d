"""Near misses of a bare Vault legacy service token: `s.` followed by words, attribute chains, file
names, typed or repeated values, the wrong length or alphabet."""

import os


def tidy(s, this, parts, vars):
    a = s.strip().split()
    b = this.s.Kx7mQ2pL9vR4tY8wZ3nB6cD1
    c = parts.s.Tq3Wm8Rk2Lp7Vn4Xc9Bz6Hj5
    d = os.path.join(vars.s.A9b8C7d6E5f4G3h2I1j0K9L8, "x")
    return a, b, c, d


ARCHIVE = "backups/s.Hq2Wn8Rt4Yp6Lm3Zk9Xv7Bc1.tar.gz"
LOGS = "logs.Jf7Kd2Ls9Qw4Er8Ty3Ui6Op1"
NAMES = "the class's.Configuration2024DefaultsLoaded flag"
TYPED = "s.MyVaultTokenGoesHere1234"
LOWER = "s.qwhzrtkpnmdbvcxlsgfjyuae"
RUN = "s.AAAAAAAAAAAAAAAAaaaaaaa1"
SHORT = "s.Hq2Wn8Rt4Yp6Lm3Z"
LONG = "s.Hq2Wn8Rt4Yp6Lm3Zk9Xv7Bc1Nd5"
UNDERSCORE = "s.Hq2Wn8Rt4Yp6Lm3Zk9Xv7Bc1_old"
