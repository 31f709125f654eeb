dnl hwr.m4 - configure checks of hw-r10kevctr.

dnl HWR_CHECK_CFLAG(FLAG, VAR): append FLAG to VAR if the compiler takes it.
AC_DEFUN([HWR_CHECK_CFLAG], [
    AC_MSG_CHECKING([whether $CC accepts $1])
    hwr_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -Werror $1"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
        [AC_MSG_RESULT([yes]); $2="$$2 $1"], [AC_MSG_RESULT([no])])
    CFLAGS=$hwr_save_CFLAGS
])

dnl HWR_NETSNMP: find net-snmp's library through net-snmp-config.
dnl Only -I/-D flags are kept from its CFLAGS (it also prints the flags
dnl net-snmp itself was built with).  The agent is linked with the base
dnl library only (config files, logging, alarms, the select loop's
dnl timeouts): it owns its AgentX session, and net-snmp's agent library
dnl (init_agent, handlers) is not used (doc/architecture.md).
AC_DEFUN([HWR_NETSNMP], [
    AC_PATH_PROG([NET_SNMP_CONFIG], [net-snmp-config])
    AS_IF([test -z "$NET_SNMP_CONFIG"],
        [AC_MSG_ERROR([net-snmp-config not found; install the Debian package libsnmp-dev])])
    NETSNMP_VERSION=`$NET_SNMP_CONFIG --version`
    NETSNMP_CFLAGS=""
    for f in `$NET_SNMP_CONFIG --cflags`; do
        case $f in
        -I/usr/include|-I.) ;;
        -I*|-DNETSNMP*) NETSNMP_CFLAGS="$NETSNMP_CFLAGS $f" ;;
        esac
    done
    NETSNMP_LIBS=`$NET_SNMP_CONFIG --netsnmp-libs`
    hwr_save_CFLAGS=$CFLAGS; hwr_save_LIBS=$LIBS
    CFLAGS="$CFLAGS $NETSNMP_CFLAGS"; LIBS="$NETSNMP_LIBS $LIBS"
    AC_MSG_CHECKING([whether net-snmp's library links])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
]], [[read_configs(); snmp_alarm_register(1, 0, NULL, NULL); return 0;]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([cannot link net-snmp's library; install the Debian package libsnmp-dev])])
    CFLAGS=$hwr_save_CFLAGS; LIBS=$hwr_save_LIBS
    AC_SUBST([NETSNMP_CFLAGS])
    AC_SUBST([NETSNMP_LIBS])
    AC_SUBST([NETSNMP_VERSION])
    NETSNMP_MIBDIRS=`$NET_SNMP_CONFIG --default-mibdirs`
    AC_SUBST([NETSNMP_MIBDIRS])
])

dnl HWR_BASE_MIBS: a directory with the IETF base MIB modules (SNMPv2-SMI,
dnl SNMPv2-TC, SNMPv2-CONF, SNMPv2-MIB) as text, for smilint, snmptranslate
dnl and the test tools.  The project never ships copies of them; see
dnl DEVELOPERS.md.  Usual MIB directories first, then erlang-snmp's, then
dnl the npm package net-snmp's.
AC_DEFUN([HWR_BASE_MIBS], [
    AC_ARG_WITH([base-mibs],
        [AS_HELP_STRING([--with-base-mibs=DIR], [directory holding SNMPv2-SMI and friends])],
        [BASE_MIBDIR=$withval], [BASE_MIBDIR=""])
    AC_MSG_CHECKING([for the IETF base MIB modules])
    AS_IF([test -z "$BASE_MIBDIR"], [
        hwr_npm_root=`npm root -g 2>/dev/null`
        for d in /usr/share/snmp/mibs /usr/share/snmp/mibs/ietf /usr/share/mibs/ietf \
                 /var/lib/mibs/ietf /usr/local/share/snmp/mibs \
                 /usr/lib/erlang/lib/snmp-*/mibs \
                 ${hwr_npm_root:+$hwr_npm_root/net-snmp/lib/mibs}; do
            for f in "$d/SNMPv2-SMI" "$d/SNMPv2-SMI.txt" "$d/SNMPv2-SMI.mib" "$d/SNMPv2-SMI.my"; do
                AS_IF([test -f "$f"], [BASE_MIBDIR=$d; break 2])
            done
        done
    ])
    AC_MSG_RESULT([${BASE_MIBDIR:-no}])
    AS_IF([test -z "$BASE_MIBDIR"],
        [AC_MSG_WARN([no IETF base MIB modules found: install the Debian package erlang-snmp (or pass --with-base-mibs=DIR); the MIB tests need them])])
    AC_SUBST([BASE_MIBDIR])
])
