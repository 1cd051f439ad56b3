// SPDX-License-Identifier: GPL-2.0
/* Small string helpers of lib/string.c and the CRC-32 of lib/crc32.c, written
 * for the shim. */
#include <linux/crc32.h>
#include <linux/string.h>

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strlcpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);

	if (n) {
		size_t k = len >= n ? n - 1 : len;

		for (size_t i = 0; i < k; i++)
			d[i] = s[i];
		d[k] = 0;
	}
	return len;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

u32 crc32_le(u32 crc, const unsigned char *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return crc;
}
