_SIZES = {}


def initialize_model_parallel(tensor_model_parallel_size=1, pipeline_model_parallel_size=1,
                              context_parallel_size=1, expert_model_parallel_size=1):
    _SIZES["tp"] = tensor_model_parallel_size
    _SIZES["pp"] = pipeline_model_parallel_size
    _SIZES["cp"] = context_parallel_size
    _SIZES["ep"] = expert_model_parallel_size
