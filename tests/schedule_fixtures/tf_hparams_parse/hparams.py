import tensorflow as tf


def create_hparams(hparams_string=None):
    hparams = tf.contrib.training.HParams(
        epochs=10,
        iters_per_checkpoint=500,
        fp16_run=False,
        distributed_run=False,
        batch_size=8,
    )
    if hparams_string:
        hparams.parse(hparams_string)
    return hparams
