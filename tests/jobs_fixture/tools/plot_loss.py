import sys


def plot(path):
    print(open(path).read())


if __name__ == "__main__":
    plot(sys.argv[1])
