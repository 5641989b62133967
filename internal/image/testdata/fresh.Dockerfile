# Written by rdbgen 0.1.0: redis-server with the dataset of dump.rdb in /data, loaded at start-up.
FROM redis:7.4-alpine
COPY --chown=999:999 dump.rdb /data/dump.rdb
COPY rdbgen /usr/local/bin/rdbgen
LABEL io.rdbgen.version="0.1.0" io.rdbgen.rdb-version="9" io.rdbgen.persist="false" io.rdbgen.expiry-from-start="true"
# No save points and appendonly off: the server never writes the dump back.
# rdbgen moves the dump's expiries to the container's start, then runs the rest.
# Arguments after the image name in docker run are added to the server's.
ENTRYPOINT ["/usr/local/bin/rdbgen","entrypoint","/data/dump.rdb","--","docker-entrypoint.sh","redis-server","--dir","/data","--dbfilename","dump.rdb","--appendonly","no","--save","","--maxmemory","1gb"]
CMD []
