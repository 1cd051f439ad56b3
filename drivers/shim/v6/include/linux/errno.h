/* SPDX-License-Identifier: GPL-2.0 */
/* Error numbers (Linux values; the driver returns their negatives). */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define EAGAIN 11
#define ENOMEM 12
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define ENODEV 19
#define EINVAL 22
#define ENOSPC 28
#define ERANGE 34
#define ENOSYS 38
#define EILSEQ 84
#define EOVERFLOW 75
#define EADDRNOTAVAIL 99
#define ENETDOWN 100
#define ENOBUFS 105
#define ENODATA 61
#define ETIME 62
#define EOPNOTSUPP 95
#define ETIMEDOUT 110
#define EPROBE_DEFER 517
#define ENOTSUPP 524
#endif
