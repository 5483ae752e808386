# The sub-project's install script: `pip install -e .` from app/ makes
# mypkg importable from anywhere (the job's README says to run it).
import setuptools

setuptools.setup(name="mypkg", version="0.1", packages=setuptools.find_packages(include=["mypkg"]))
