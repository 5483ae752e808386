import os

import torch


def get_use_compile():
    return os.environ.get("USE_COMPILE", "1") == "1"


class compile_wrap:
    """Compiles the function it decorates on its first call."""

    def __init__(self, function, *args, **kwargs):
        self.function = function
        self.args = args
        self.kwargs = kwargs
        self._compiled_function = None

    @property
    def compiled_function(self):
        if self._compiled_function is not None:
            return self._compiled_function
        if get_use_compile():
            self._compiled_function = torch.compile(self.function, *self.args, **self.kwargs)
        else:
            self._compiled_function = self.function
        return self._compiled_function

    def __call__(self, *args, **kwargs):
        return self.compiled_function(*args, **kwargs)
