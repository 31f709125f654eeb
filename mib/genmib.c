/*
 * genmib - generates HW-R10KEVCTR-MIB.txt, the agent's object table
 * (lib/meta/objects.c), the Zabbix template and snmp_exporter's
 * generator.yml from lib/tables/objects.def, lib/tables/metrics.def,
 * lib/tables/stats.def, lib/tables/root.def and mib/hw.help (the tables
 * are compiled in; the help file is read at run time).
 *
 * usage: genmib HW.HELP MIB-OUT C-OUT ZABBIX-OUT GENERATOR-OUT
 * Any error in the help file is reported as FILE:LINE and exits 1 without
 * leaving partial output behind.
 */
#include <stdio.h>
#include <stdlib.h>

#include "meta/helpfile.h"
#include "mibmodel.h"

typedef void (*writer)(const struct mibmodel *, FILE *);

static int write_file(const char *path, const struct mibmodel *mm, writer w)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 1;
	}
	w(mm, out);
	if (ferror(out) | fclose(out)) {
		perror(path);
		remove(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct helpfile hf;
	struct mibmodel mm;

	if (argc != 6) {
		fprintf(stderr, "usage: %s HW.HELP MIB-OUT C-OUT ZABBIX-OUT "
			"GENERATOR-OUT\n",
			argv[0]);
		return 2;
	}
	int errors = meta_helpfile_load(argv[1], &hf, stderr);
	if (!errors)
		errors = mib_model_build(&mm, &hf, stderr);
	else
		mm = (struct mibmodel){0};
	if (errors) {
		fprintf(stderr, "%s: %d error(s); nothing generated\n", argv[1],
			errors);
		mib_model_free(&mm);
		meta_helpfile_free(&hf);
		return 1;
	}
	int rc = write_file(argv[2], &mm, mib_model_write_mib) ||
		 write_file(argv[3], &mm, mib_model_write_c) ||
		 write_file(argv[4], &mm, mib_model_write_zabbix) ||
		 write_file(argv[5], &mm, mib_model_write_snmp_generator);
	mib_model_free(&mm);
	meta_helpfile_free(&hf);
	return rc;
}
