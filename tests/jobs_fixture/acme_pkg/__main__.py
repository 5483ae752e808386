import sys

sys.path.insert(0, "src")
from acme.cli.train import main

main()
