"""A float32 torch tensor."""

import torch


def rotation(angle):
    t = torch.tensor(angle, dtype=torch.float32)
    return torch.stack([torch.stack([torch.cos(t), -torch.sin(t)]), torch.stack([torch.sin(t), torch.cos(t)])])
